//! What the round needs to know of a request, whatever feature made it: the
//! key it is routed by, how it is encoded in each form, and what its reply
//! means. Features implement `Request`; the round never names them.

use std::time::Duration;

use crate::engine::protocol::resp::{printable, Reply};
use crate::engine::protocol::script::Form;
use crate::engine::protocol::server_info::{Caps, Native};

/// What a (non-error) reply says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Set, deleted, extended: a vote for.
    Yes,
    /// Not ours, not free: a vote against.
    No,
    /// An answer that is data for the caller, not a vote.
    Data,
    /// A reply this request never gets from a sane server: the connection
    /// is dropped and the request fails with this text.
    Malformed(String),
    /// The native form could not decide (a waiter's mark on the value
    /// hides ownership from a plain compare): send the script form now.
    Again,
}

/// What `TRYAGAIN` (a slot being migrated that has only some of the
/// request's keys) means for the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unstable {
    /// Retry, pausing, within the node's connect and reply timeouts.
    WaitOut,
    /// Fail at once with `Cause::SlotUnstable`: the caller has a single-key
    /// way that works during a migration.
    Report,
}

pub trait Request {
    /// The key a deployment routes the request by (empty for a question
    /// about the deployment itself).
    fn key(&self) -> &[u8];

    /// The form of a first send on a healthy connection.
    fn first_form(&self) -> Form {
        Form::Sha
    }

    /// The form for sending again after a connection broke with the request
    /// in flight: the first send may have run, so only an idempotent form.
    fn resend_form(&self, sent: Form) -> Form {
        sent
    }

    /// The native command that stands in for its script on a server that
    /// has `caps`, if any.
    fn native(&self, _caps: Caps) -> Option<Native> {
        None
    }

    /// Appends the request in `form` to `out`.
    fn encode(&self, form: Form, out: &mut Vec<u8>);

    /// What a reply that is not an error means, for the request sent in `form`.
    fn classify(&self, form: Form, reply: &Reply) -> Verdict;

    /// What to pipeline behind the request when its reply did not come in
    /// time, before the connection is dropped (if the server runs it late,
    /// this undoes it right after). Sent as script text: nobody will be
    /// there to answer NOSCRIPT. Whether anything was appended.
    fn cleanup(&self, _out: &mut Vec<u8>) -> bool {
        false
    }

    /// Whether a send whose answer nobody waits for any more (the round was
    /// decided without it) must surely run: an `EVALSHA` is then sent again
    /// as text behind it, in case the server answered NOSCRIPT. Not for a
    /// request that is harmless not to run and wrong to run twice.
    fn must_run(&self) -> bool {
        true
    }

    /// How long the server may hold the reply back beyond the reply timeout.
    fn blocks_for(&self) -> Duration {
        Duration::ZERO
    }

    /// Whether it means something only on the connection that sent the
    /// requests before it (`WAIT`): never sent on another one, nor elsewhere.
    fn bound_to_connection(&self) -> bool {
        false
    }

    /// Whether the reply may be an array.
    fn accepts_array(&self) -> bool {
        false
    }

    /// Text masked in error messages (a token a server may echo).
    fn secret(&self) -> &str {
        ""
    }

    fn on_unstable(&self) -> Unstable {
        Unstable::WaitOut
    }
}

/// `text` with `secret` masked.
pub fn hide(secret: &str, text: &str) -> String {
    match secret {
        "" => text.to_owned(),
        secret => text.replace(secret, "<token>"),
    }
}

/// The verdict of a reply that is a yes (`:1`, `+OK`) or a no (`:0`, nil).
pub fn yes_or_no(reply: &Reply, secret: &str) -> Verdict {
    match reply {
        Reply::Int(1) => Verdict::Yes,
        Reply::Status(s) if s == b"OK" => Verdict::Yes,
        Reply::Nil | Reply::Int(0) => Verdict::No,
        Reply::Int(n) => Verdict::Malformed(format!("unexpected reply :{n}")),
        Reply::Status(s) => Verdict::Malformed(format!("unexpected reply +{}", hide(secret, &printable(s)))),
        Reply::Bulk(s) => Verdict::Malformed(format!("unexpected reply ${}", hide(secret, &printable(s)))),
        Reply::Error(_) => Verdict::Malformed("unexpected error reply".into()),
        Reply::Array(_) => Verdict::Malformed("unexpected array reply".into()),
    }
}

/// The verdict of a reply that is data when it `fits`.
pub fn data_if(fits: bool, reply: &Reply, what: &str, secret: &str) -> Verdict {
    match fits {
        true => Verdict::Data,
        false => Verdict::Malformed(hide(secret, &format!("unexpected reply to {what}: {reply:?}"))),
    }
}
