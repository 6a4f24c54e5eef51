//! NVUE's REST API on the lab's Cumulus switch (served over HTTPS by `crate::lab::https`):
//! the part the Ansible `nvidia.nvue` collection's httpapi plugin and modules use, through
//! the same revisions, apply and confirm window as `nv set` / `nv config apply`.
//!
//! Facts (`../shared/reference/cumulus-nvue.md` §1 "REST API", `/work/nvue-facts.md` §4,
//! the collection's `plugins/httpapi/httpapi.py`): `POST /nvue_v1/revision` answers
//! `{"<rev>": {"state": "pending", …}}`; `PATCH /nvue_v1/<path>?rev=<rev>` with a JSON object
//! merges it into the revision; `DELETE /nvue_v1/<path>?rev=<rev>` unsets (204 from 5.10);
//! `PATCH /nvue_v1/revision/<rev>` with `{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}`
//! applies (`"state-controls": {"confirm": N}` with a confirm window; `confirm_yes` /
//! `confirm_no` end it); `GET /nvue_v1/revision/<rev>` reads its state (`applied` once
//! applied); `GET /nvue_v1/<path>?rev=applied` reads the applied tree. What rests on no
//! capture or document is in [`UNCONFIRMED`].

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::CumulusSwitch;
use super::session::{ROOTS, confirm};
use crate::cumulus::tree::{self, Node, Tree};
use crate::targets::{ApiReply, ApiRequest, LabEffect};

/// The API's path.
pub const PREFIX: &str = "/nvue_v1";

/// The most revisions the API keeps (NVUE's default `NVUE_MAX_REVISIONS`); the oldest go.
const MAX_REVISIONS: usize = 100;

/// What the lab's API answers on its own word, and what each rests on.
pub const UNCONFIRMED: &[(&str, &str)] = &[
    (
        "status 200 for POST /revision and PATCH; 204 for DELETE",
        "the 5.10 note on DELETE (doc); POST's code is not documented",
    ),
    (
        "errors as `{\"detail\", \"status\", \"title\", \"type\": \"about:blank\"}`",
        "the shape of the API's framework (Connexion); no capture of an NVUE error body",
    ),
    (
        "a JSON `null` in a PATCH unsets the object",
        "JSON merge-patch's meaning; NVUE's not documented",
    ),
    (
        "values read back as JSON numbers when all digits, else strings; `true`/`false` written as `on`/`off`",
        "NVUE's JSON shows `mtu: 9216` as a number (doc examples); the rest is the lab's choice",
    ),
    (
        "a read without `rev` (operational state) answers the applied tree",
        "the lab has no operational state beyond `nv show`",
    ),
    (
        "an apply that changes nothing ends `applied`",
        "NVUE's answer for an empty revision was not found",
    ),
    (
        "the state `confirm` while an apply waits for its confirmation; `confirm_no` after a reject",
        "revision states listed by an NVIDIA client (tool); never seen on a switch",
    ),
    (
        "revisions made through the API live in memory only (gone when the lab restarts)",
        "the lab's choice",
    ),
];

/// A revision made through the API: its tree and state (`pending`, `applied`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiRev {
    pub tree: Tree,
    pub state: &'static str,
}

fn reply(status: u16, body: Value) -> ApiReply {
    ApiReply {
        status,
        body: body.to_string(),
    }
}

fn problem(status: u16, title: &str, detail: &str) -> ApiReply {
    reply(
        status,
        json!({"detail": detail, "status": status, "title": title, "type": "about:blank"}),
    )
}

fn bad(detail: &str) -> ApiReply {
    problem(400, "Bad Request", detail)
}

fn not_found(detail: &str) -> ApiReply {
    problem(404, "Not Found", detail)
}

/// One request to the API of `sw`.
pub fn answer(sw: &mut CumulusSwitch, req: &ApiRequest<'_>, effect: &mut LabEffect) -> ApiReply {
    effect.changed |= sw.settle();
    let Some(rest) = req.path.strip_prefix(PREFIX) else {
        return not_found(req.path);
    };
    let Some(path) = segments(rest) else {
        return bad("the path is not valid UTF-8 once unescaped");
    };
    let query = query(req.query);
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    match (req.method, path.as_slice()) {
        ("POST", ["revision"]) => new_revision(sw),
        ("GET", ["revision"]) => reply(
            200,
            Value::Object(
                sw.api_revs
                    .iter()
                    .map(|(n, r)| (n.to_string(), state(r.state)))
                    .collect(),
            ),
        ),
        ("GET", ["revision", rev]) => match rev_number(rev).and_then(|n| sw.api_revs.get(&n)) {
            Some(r) => reply(200, state(r.state)),
            None => not_found(&format!("revision {rev}")),
        },
        ("PATCH", ["revision", rev]) => change_revision(sw, rev, req, effect),
        ("DELETE", ["revision", rev]) => match rev_number(rev).map(|n| sw.api_revs.remove(&n)) {
            Some(Some(_)) => ApiReply {
                status: 204,
                body: String::new(),
            },
            _ => not_found(&format!("revision {rev}")),
        },
        ("GET", path) => read(sw, path, query.get("rev").map(String::as_str)),
        ("PATCH" | "DELETE", path) => {
            let Some(rev) = query.get("rev") else {
                return bad("a change names its revision: ?rev=<rev>");
            };
            match rev_number(rev) {
                Some(n) if sw.api_revs.get(&n).is_some_and(|r| r.state == "pending") => {
                    change(sw, n, path, req)
                }
                _ => bad(&format!("revision {rev} is not pending")),
            }
        }
        (method, _) => problem(405, "Method Not Allowed", method),
    }
}

/// `{"state": …, "transition": {"issue": {}, "progress": ""}}`.
fn state(s: &str) -> Value {
    json!({"state": s, "transition": {"issue": {}, "progress": ""}})
}

/// The path's names after the prefix, unescaped (`%2F` is a `/` within a name).
fn segments(rest: &str) -> Option<Vec<String>> {
    rest.split('/')
        .filter(|s| !s.is_empty())
        .map(unescape)
        .collect()
}

/// `a%2Fb` → `a/b`; `+` is itself.
fn unescape(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The query's parameters (`rev=1&filled=false`), unescaped.
fn query(q: &str) -> BTreeMap<String, String> {
    q.split('&')
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let plus = |s: &str| unescape(&s.replace('+', " "));
            Some((plus(k)?, plus(v)?))
        })
        .collect()
}

fn rev_number(rev: &str) -> Option<u64> {
    rev.parse().ok()
}

/// `POST /revision`: a new revision of the applied tree.
fn new_revision(sw: &mut CumulusSwitch) -> ApiReply {
    let rev = sw.new_rev();
    sw.api_revs.insert(
        rev,
        ApiRev {
            tree: sw.applied.clone(),
            state: "pending",
        },
    );
    while sw.api_revs.len() > MAX_REVISIONS {
        sw.api_revs.pop_first();
    }
    reply(200, json!({ rev.to_string(): state("pending") }))
}

/// `GET <path>?rev=…`: the object at `path` of the applied tree (no `rev`, `applied`,
/// `operational`), the saved one (`startup`) or an API revision.
fn read(sw: &CumulusSwitch, path: &[&str], rev: Option<&str>) -> ApiReply {
    let tree = match rev {
        None | Some("applied" | "operational") => sw.standing(),
        Some("startup") => &sw.startup,
        Some(r) => match rev_number(r).and_then(|n| sw.api_revs.get(&n)) {
            Some(a) => &a.tree,
            None => return not_found(&format!("revision {r}")),
        },
    };
    if path.is_empty() {
        return reply(200, to_json(tree));
    }
    match tree::get(tree, path) {
        Some(Node::Map(m)) => reply(200, to_json(m)),
        Some(Node::Leaf(v)) => reply(200, scalar(v)),
        None => not_found(&path.join("/")),
    }
}

/// A tree as the API prints it.
fn to_json(t: &Tree) -> Value {
    Value::Object(
        t.iter()
            .map(|(k, v)| {
                let v = match v {
                    Node::Map(m) => to_json(m),
                    Node::Leaf(s) => scalar(s),
                };
                (k.to_string(), v)
            })
            .collect(),
    )
}

/// A value: a number when it is all digits (no leading zero), else its text.
fn scalar(s: &str) -> Value {
    let number = !s.is_empty()
        && s.len() < 16
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'));
    match s.parse::<u64>() {
        Ok(n) if number => Value::from(n),
        _ => Value::from(s),
    }
}

/// `PATCH` / `DELETE` of `path` in pending revision `rev`.
fn change(sw: &mut CumulusSwitch, rev: u64, path: &[&str], req: &ApiRequest<'_>) -> ApiReply {
    let mut commands = Vec::new();
    let body = if req.method == "DELETE" {
        if path.is_empty() {
            return bad("the whole tree is not deleted; PATCH each object");
        }
        commands.push(tree::Command {
            unset: true,
            path: path.iter().map(|s| s.to_string()).collect(),
            value: None,
        });
        None
    } else {
        let body: Value = match serde_json::from_slice(req.body) {
            Ok(v) => v,
            Err(e) => return bad(&format!("the body is not JSON: {e}")),
        };
        let Value::Object(obj) = &body else {
            return bad("the body is a JSON object");
        };
        let mut at: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        if let Err(e) = commands_of(obj, &mut at, &mut commands) {
            return bad(&e);
        }
        Some(body)
    };
    let mut expanded = Vec::new();
    for c in commands {
        let paths = match expand_path(&c.path) {
            Ok(p) => p,
            Err(e) => return bad(&e),
        };
        if c.path.first().is_none_or(|r| !ROOTS.contains(&r.as_str())) {
            return bad(&format!("`{}` is not an object NVUE has", c.path.join("/")));
        }
        expanded.extend(
            paths
                .into_iter()
                .map(|path| tree::Command { path, ..c.clone() }),
        );
    }
    let Some(r) = sw.api_revs.get_mut(&rev) else {
        return not_found(&format!("revision {rev}"));
    };
    tree::apply(&mut r.tree, &expanded);
    match body {
        Some(b) => reply(200, b),
        None => ApiReply {
            status: 204,
            body: String::new(),
        },
    }
}

/// The commands a JSON object at `path` stands for: a set per value and empty object, an
/// unset per `null`.
fn commands_of(
    obj: &Map<String, Value>,
    path: &mut Vec<String>,
    out: &mut Vec<tree::Command>,
) -> Result<(), String> {
    if obj.is_empty() && !path.is_empty() {
        out.push(tree::Command {
            unset: false,
            path: path.clone(),
            value: None,
        });
    }
    for (k, v) in obj {
        if k.is_empty() {
            return Err("an empty name".to_string());
        }
        path.push(k.clone());
        let value = match v {
            Value::Object(m) => {
                commands_of(m, path, out)?;
                path.pop();
                continue;
            }
            Value::Null => None,
            Value::Bool(b) => Some(if *b { "on" } else { "off" }.to_string()),
            Value::Number(n) => Some(n.to_string()),
            Value::String(s) => Some(s.clone()),
            Value::Array(_) => return Err(format!("`{}`: a list is not a value", path.join("/"))),
        };
        out.push(tree::Command {
            unset: value.is_none(),
            path: path.clone(),
            value,
        });
        path.pop();
    }
    Ok(())
}

/// The paths a path with range names stands for (`interface/swp1-2` → `swp1`, `swp2`).
fn expand_path(path: &[String]) -> Result<Vec<Vec<String>>, String> {
    let mut out = vec![Vec::new()];
    for (i, name) in path.iter().enumerate() {
        let items = match i.checked_sub(1).map(|p| path[p].as_str()) {
            Some(parent) if tree::ranged(parent) => tree::expand(name)?,
            _ => vec![name.clone()],
        };
        if out.len() * items.len() > 4096 {
            return Err(format!("`{}` stands for too many objects", path.join("/")));
        }
        out = out
            .into_iter()
            .flat_map(|p| {
                items.iter().map(move |n| {
                    let mut p = p.clone();
                    p.push(n.clone());
                    p
                })
            })
            .collect();
    }
    Ok(out)
}

/// `PATCH /revision/<rev>`: `{"state": "apply" | "confirm_yes" | "confirm_no", …}`.
fn change_revision(
    sw: &mut CumulusSwitch,
    rev: &str,
    req: &ApiRequest<'_>,
    effect: &mut LabEffect,
) -> ApiReply {
    let Some(n) = rev_number(rev).filter(|n| sw.api_revs.contains_key(n)) else {
        return not_found(&format!("revision {rev}"));
    };
    let body: Value = match serde_json::from_slice(req.body) {
        Ok(v) => v,
        Err(e) => return bad(&format!("the body is not JSON: {e}")),
    };
    let window = body
        .pointer("/state-controls/confirm")
        .and_then(Value::as_u64)
        .map(Duration::from_secs);
    match body.get("state").and_then(Value::as_str) {
        Some("apply") => match apply(sw, n, window, req.user, "REST", effect) {
            Ok(()) => reply(200, state("apply")),
            Err(e) => bad(&e),
        },
        Some(s @ ("confirm_yes" | "confirm_no")) => {
            let yes = s == "confirm_yes";
            let said = confirm(sw, Some(rev), yes, effect);
            if said.starts_with("Error") {
                return bad(said.trim_end());
            }
            if let Some(r) = sw.api_revs.get_mut(&n) {
                r.state = if yes { "applied" } else { "confirm_no" };
            }
            reply(200, state(s))
        }
        other => bad(&format!(
            "state `{}`: apply, confirm_yes or confirm_no",
            other.unwrap_or("")
        )),
    }
}

/// Applies pending API revision `n`; why not when it is not pending.
fn apply(
    sw: &mut CumulusSwitch,
    n: u64,
    window: Option<Duration>,
    user: &str,
    method: &'static str,
    effect: &mut LabEffect,
) -> Result<(), String> {
    let tree = match sw.api_revs.get(&n) {
        Some(r) if r.state == "pending" => r.tree.clone(),
        Some(r) => return Err(format!("revision {n} is {}, not pending", r.state)),
        None => return Err(format!("no revision {n}")),
    };
    let changed = sw.apply_tree((n, tree), window, user, method);
    effect.changed |= changed;
    if let Some(r) = sw.api_revs.get_mut(&n) {
        r.state = if window.is_some() && changed {
            "confirm"
        } else {
            "applied"
        };
    }
    Ok(())
}

/// `nv config apply <rev>` of a revision made through the API: what the CLI prints, or
/// `None` when `rev` is none of them.
pub fn apply_by_cli(
    sw: &mut CumulusSwitch,
    rev: &str,
    window: Option<Duration>,
    user: &str,
    effect: &mut LabEffect,
) -> Option<String> {
    let n = rev_number(rev).filter(|n| sw.api_revs.contains_key(n))?;
    Some(match apply(sw, n, window, user, "CLI", effect) {
        Ok(()) => format!("applied [rev_id: {n}]\n"),
        Err(e) => format!("Error: {e}\n"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(sw: &mut CumulusSwitch, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let req = ApiRequest {
            method,
            path,
            query,
            body: body.as_bytes(),
            user: "cumulus",
        };
        let r = answer(sw, &req, &mut LabEffect::default());
        let v = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        (r.status, v)
    }

    #[test]
    fn every_unconfirmed_answer_has_what_it_rests_on() {
        assert!(
            UNCONFIRMED
                .iter()
                .all(|(a, b)| !a.is_empty() && !b.is_empty())
        );
    }

    #[test]
    fn a_revision_is_made_patched_applied_and_read_back() {
        let mut sw = CumulusSwitch::factory("leaf01");
        let (code, made) = call(&mut sw, "POST", "/nvue_v1/revision", "{}");
        assert_eq!(code, 200);
        let rev = made.as_object().unwrap().keys().next().unwrap().clone();
        assert_eq!(made[&rev]["state"], "pending");
        let body = r#"{"swp1-2": {"description": "to host", "link": {"mtu": 9216}}}"#;
        let (code, _) = call(
            &mut sw,
            "PATCH",
            &format!("/nvue_v1/interface?rev={rev}"),
            body,
        );
        assert_eq!(code, 200);
        // Not applied yet.
        assert_eq!(
            call(&mut sw, "GET", "/nvue_v1/interface/swp1?rev=applied", "").0,
            404
        );
        let apply = r#"{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}"#;
        let path = format!("/nvue_v1/revision/{rev}");
        assert_eq!(call(&mut sw, "PATCH", &path, apply).0, 200);
        assert_eq!(call(&mut sw, "GET", &path, "").1["state"], "applied");
        let (code, swp2) = call(&mut sw, "GET", "/nvue_v1/interface/swp2?rev=applied", "");
        assert_eq!(code, 200);
        assert_eq!(swp2["description"], "to host");
        assert_eq!(swp2["link"]["mtu"], 9216);
        assert_eq!(sw.history.last().map(|a| a.method), Some("REST"));
        // Applied once only; a change needs a new revision.
        assert_eq!(call(&mut sw, "PATCH", &path, apply).0, 400);
        let bad = format!("/nvue_v1/interface?rev={rev}");
        assert_eq!(call(&mut sw, "PATCH", &bad, "{}").0, 400);
    }

    #[test]
    fn delete_and_null_unset_and_bad_input_is_refused() {
        let mut sw = CumulusSwitch::factory("leaf01");
        let rev = |sw: &mut CumulusSwitch| {
            let (_, v) = call(sw, "POST", "/nvue_v1/revision", "");
            v.as_object().unwrap().keys().next().unwrap().clone()
        };
        let r = rev(&mut sw);
        let patch = format!("/nvue_v1/?rev={r}");
        let body = r#"{"system": {"message": {"pre-login": "WARNING"}}}"#;
        assert_eq!(call(&mut sw, "PATCH", &patch, body).0, 200);
        let del = format!("/nvue_v1/system/api?rev={r}");
        assert_eq!(call(&mut sw, "DELETE", &del, "").0, 204);
        let null = r#"{"system": {"timezone": null}}"#;
        assert_eq!(call(&mut sw, "PATCH", &patch, null).0, 200);
        let apply = format!("/nvue_v1/revision/{r}");
        call(&mut sw, "PATCH", &apply, r#"{"state": "apply"}"#);
        let (_, system) = call(&mut sw, "GET", "/nvue_v1/system", "");
        assert_eq!(system["message"]["pre-login"], "WARNING");
        assert!(system.get("api").is_none() && system.get("timezone").is_none());
        let r = rev(&mut sw);
        let patch = format!("/nvue_v1/?rev={r}");
        for bad in ["[1]", "{\"bogus\": {}}", "not json", "{\"system\": [1]}"] {
            assert_eq!(call(&mut sw, "PATCH", &patch, bad).0, 400, "{bad}");
        }
        assert_eq!(call(&mut sw, "GET", "/nvue_v1/revision/99", "").0, 404);
        assert_eq!(call(&mut sw, "PUT", "/nvue_v1/system", "").0, 405);
        assert_eq!(call(&mut sw, "GET", "/nvue_v1/%zz", "").0, 400);
    }

    #[test]
    fn a_confirm_window_through_the_api_is_confirmed_or_rolled_back() {
        let mut sw = CumulusSwitch::factory("leaf01");
        let before = sw.applied.clone();
        for (answer_with, kept) in [("confirm_yes", true), ("confirm_no", false)] {
            let (_, v) = call(&mut sw, "POST", "/nvue_v1/revision", "");
            let r = v.as_object().unwrap().keys().next().unwrap().clone();
            let body = format!(r#"{{"system": {{"hostname": "{answer_with}"}}}}"#);
            call(&mut sw, "PATCH", &format!("/nvue_v1/?rev={r}"), &body);
            let path = format!("/nvue_v1/revision/{r}");
            let apply = r#"{"state": "apply", "state-controls": {"confirm": 600}}"#;
            assert_eq!(call(&mut sw, "PATCH", &path, apply).0, 200);
            assert_eq!(call(&mut sw, "GET", &path, "").1["state"], "confirm");
            let yes = format!(r#"{{"state": "{answer_with}"}}"#);
            assert_eq!(call(&mut sw, "PATCH", &path, &yes).0, 200);
            assert!(sw.confirm.is_none());
            let name = tree::value(&sw.applied, &["system", "hostname"]);
            assert_eq!(name == Some(answer_with), kept);
        }
        assert_ne!(sw.applied, before);
    }
}
