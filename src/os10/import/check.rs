//! Whether the fabric reproduces an OS10 switch it was imported from: its compiled config
//! plans empty against the source; each step of a plan that is not is said at the line of
//! the source it changes.

use crate::fabric::Switch;
use crate::import::{Lost, Source};
use crate::os10::plan::Step;

/// What a push of the fabric's switch would change on the switch it was imported from: its
/// compiled config planned against the source, each step at the line of the source it
/// changes; `None` when nothing.
pub(super) fn lost(sw: Option<&Switch>, name: &str, source: &Source) -> Option<Lost> {
    let lost = |plan: Vec<String>| Lost {
        name: name.to_string(),
        origin: source.origin.clone(),
        plan,
        lost: Vec::new(),
        added: Vec::new(),
    };
    let Some(sw) = sw else {
        return Some(lost(vec!["the fabric has no such switch".into()]));
    };
    let running = match source.typed::<crate::os10::Config>() {
        Ok(c) => c,
        Err(e) => return Some(lost(vec![e])),
    };
    let intended = crate::os10::compile::compile_switch(sw);
    let steps = crate::os10::plan::plan(running, &intended);
    if steps.is_empty() {
        return None;
    }
    let plan = steps
        .iter()
        .map(|s| {
            let at = match locate(&source.text, s) {
                Some(line) => format!("{}:{line}", source.origin),
                None => source.origin.clone(),
            };
            let mut path = s.mode.clone();
            path.push(s.command.clone());
            format!("{at}: {}", path.join(" → "))
        })
        .collect();
    Some(lost(plan))
}

/// The 1-based line of `text` a plan step changes: the line it negates or overwrites inside
/// the block it is typed in, else that block's header; `None` for a block the config lacks.
fn locate(text: &str, step: &Step) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let (mut from, mut to, mut depth, mut at) = (0, lines.len(), 0, None);
    for header in &step.mode {
        let i = (from..to).find(|&i| indent(lines[i]) == depth && lines[i].trim() == header)?;
        at = Some(i);
        from = i + 1;
        to = (from..to)
            .find(|&j| !lines[j].trim().is_empty() && indent(lines[j]) <= depth)
            .unwrap_or(to);
        depth += 1;
    }
    let command = step.command.strip_prefix("no ").unwrap_or(&step.command);
    let first = command.split(' ').next().unwrap_or(command);
    let child = |key: &str| {
        (from..to).find(|&i| indent(lines[i]) == depth && lines[i].trim().starts_with(key))
    };
    child(command)
        .or_else(|| child(first).filter(|_| !step.mode.is_empty()))
        .or(at)
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(mode: &[&str], command: &str) -> Step {
        Step {
            mode: mode.iter().map(|m| m.to_string()).collect(),
            command: command.to_string(),
            opens: false,
            impact: crate::diff::Impact::Hitless,
            loses: Vec::new(),
        }
    }

    #[test]
    fn a_step_is_located_at_the_line_it_changes_else_its_block() {
        let text = "! Version 10.5.3.2\n!\npolicy-map type queuing P\n !\n class Q0\n  bandwidth percent 50\n !\n class Q3\n  bandwidth percent 50\n  random-detect ecn\n!\ninterface ethernet1/1/3\n no shutdown\n mtu 9216\n!\nvlt-domain 1\n primary-priority 3\n";
        let at = |mode: &[&str], command: &str| locate(text, &step(mode, command));
        let queuing = ["policy-map type queuing P", "class Q3"];
        assert_eq!(at(&queuing, "no random-detect ecn"), Some(10));
        assert_eq!(at(&queuing, "bandwidth percent 40"), Some(9));
        assert_eq!(at(&["interface ethernet1/1/3"], "mtu 9000"), Some(14));
        assert_eq!(
            at(&["interface ethernet1/1/3"], "flowcontrol receive off"),
            Some(12)
        );
        assert_eq!(at(&["vlt-domain 1"], "no primary-priority"), Some(17));
        assert_eq!(at(&[], "no policy-map type queuing P"), Some(3));
        // What the config lacks has no line of it.
        assert_eq!(at(&[], "class-map type queuing Q5"), None);
        assert_eq!(at(&["interface ethernet1/1/9"], "mtu 9216"), None);
    }
}
