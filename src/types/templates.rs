//! The template environment every switch OS renders through: minijinja with undefined
//! variables as errors (never empty strings), and the whitespace rules that let one
//! `{% for %}` line print one config line (`trim_blocks`, `lstrip_blocks`, the final newline
//! kept). The templates themselves belong to each OS module.

use minijinja::{Environment, UndefinedBehavior};

/// What `make` returns, made once for the whole process (a renderer of the embedded
/// templates: what renders again and again, as the lab at every `show running-config` and
/// every save, would otherwise compile the templates each time, which costs more than
/// rendering).
pub fn once<T>(
    cell: &'static std::sync::OnceLock<Result<T, String>>,
    make: fn() -> Result<T, String>,
) -> Result<&'static T, String> {
    cell.get_or_init(make).as_ref().map_err(Clone::clone)
}

/// An empty environment with the project's rules; the caller adds its templates.
pub fn environment() -> Result<Environment<'static>, String> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()
        .map_err(|e| format!("template syntax: {e}"))?;
    env.set_syntax(syntax);
    Ok(env)
}
