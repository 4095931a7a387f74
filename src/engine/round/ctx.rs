//! What every leg of a round shares.

use super::request::Request;
use super::resolve::Resolver;
use crate::engine::net::conn::{Conn, Expect, Limits};
use crate::engine::protocol::script::Form;

/// What every leg of a round shares: where keys live, the limits and the
/// packed requests (packed once per form when every node gets the same ones).
pub struct Ctx<'l> {
    pub resolver: &'l dyn Resolver,
    pub limits: &'l Limits,
    pub shared: bool,
    pub packs: Vec<Vec<(Form, Vec<u8>)>>,
}

impl Ctx<'_> {
    /// Queues request `i` in `form` on `conn` for its answer, behind
    /// `ASKING` when an `ASK` redirection led the leg there (each command
    /// needs its own, a resend too).
    pub fn push_answer(&mut self, conn: &mut Conn, i: usize, req: &dyn Request, form: Form, asking: bool) {
        if asking {
            conn.push(b"*1\r\n$6\r\nASKING\r\n", Expect::Skip);
        }
        self.push(conn, i, req, form, Expect::Answer(i));
    }

    /// Queues request `i` in `form` on `conn`.
    pub fn push(&mut self, conn: &mut Conn, i: usize, req: &dyn Request, form: Form, expect: Expect) {
        if !self.shared {
            conn.push_with(expect, |out| req.encode(form, out));
        } else {
            if self.packs.len() <= i {
                self.packs.resize_with(i + 1, Default::default);
            }
            let packs = &mut self.packs[i];
            let at = match packs.iter().position(|(f, _)| *f == form) {
                Some(at) => at,
                None => {
                    let mut out = Vec::new();
                    req.encode(form, &mut out);
                    packs.push((form, out));
                    packs.len() - 1
                }
            };
            conn.push(&packs[at].1, expect);
        }
        if req.accepts_array() {
            conn.accept_array();
        }
    }
}
