//! Lua scripts: sent by their SHA1 once the server has them, as text after
//! the server said NOSCRIPT (a restart or `SCRIPT FLUSH` empties its cache).

use std::sync::OnceLock;

use super::encode::{bulk, format_int, header, itoa_buf};
use super::server_info::Native;

/// A script of constant text; keys and arguments travel beside it.
pub struct Script {
    pub text: &'static str,
    sha: OnceLock<String>,
}

impl Script {
    pub const fn new(text: &'static str) -> Self {
        Self { text, sha: OnceLock::new() }
    }

    pub fn sha(&self) -> &str {
        self.sha.get_or_init(|| redis::Script::new(self.text).get_hash().to_owned())
    }
}

/// How a request goes on the wire: a plain command, a script by its SHA,
/// the script's text (after NOSCRIPT, or where nobody reads the answer), or
/// the one native command that does what the script does, on a server
/// that has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Plain,
    Sha,
    Eval,
    Native(Native),
}

/// `EVALSHA sha` or `EVAL text`.
pub fn script_head(script: &'static Script, form: Form) -> (&'static [u8], &'static [u8]) {
    match form {
        Form::Eval => (b"EVAL", script.text.as_bytes()),
        _ => (b"EVALSHA", script.sha().as_bytes()),
    }
}

/// `EVALSHA`/`EVAL` of `script` with its keys (each in pieces) and
/// arguments, appended to `out`.
pub fn script_call(out: &mut Vec<u8>, script: &'static Script, form: Form, keys: &[&[&[u8]]], args: &[&[u8]]) {
    let (verb, body) = script_head(script, form);
    let mut n = itoa_buf();
    header(out, b'*', 3 + keys.len() + args.len());
    bulk(out, &[verb]);
    bulk(out, &[body]);
    bulk(out, &[format_int(&mut n, keys.len() as i64)]);
    keys.iter().for_each(|key| bulk(out, key));
    args.iter().for_each(|arg| bulk(out, &[arg]));
}

#[cfg(test)]
mod tests {
    use super::*;

    static S: Script = Script::new("return redis.call('GET', KEYS[1])");

    #[test]
    fn scripts_go_by_sha_and_fall_back_to_text() {
        let (mut by_sha, mut by_text) = (Vec::new(), Vec::new());
        script_call(&mut by_sha, &S, Form::Sha, &[&[b"k\0"]], &[b"tok"]);
        let sha = redis::Script::new(S.text).get_hash().to_owned();
        assert_eq!(by_sha, redis::cmd("EVALSHA").arg(sha).arg(1).arg(&b"k\0"[..]).arg("tok").get_packed_command());
        script_call(&mut by_text, &S, Form::Eval, &[&[b"{k}", b":q"]], &[]);
        assert_eq!(by_text, redis::cmd("EVAL").arg(S.text).arg(1).arg("{k}:q").get_packed_command());
    }
}
