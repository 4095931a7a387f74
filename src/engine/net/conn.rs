//! One open connection to one Redis server, non-blocking: commands are
//! queued with what their reply is for, written when the socket takes them,
//! and replies are cut in order as they arrive. Anything a server sends that
//! nobody asked for is detected, never read as the next answer.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::dial::Stream;
use crate::engine::protocol::errors::ErrorKind;
use crate::engine::protocol::resp::{Cursor, Reply, MAX_ARRAY, MAX_REPLY};
use crate::engine::protocol::server_info::Caps;

/// Timeouts and TLS settings in force for new connections.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    pub connect: Duration,
    pub read: Duration,
    /// PEM file of the CA that signs the servers' certificates (else the system store).
    pub tls_ca_file: Option<PathBuf>,
}

impl Default for Limits {
    fn default() -> Self {
        Self { connect: Duration::from_secs(1), read: Duration::from_secs(1), tls_ca_file: None }
    }
}

/// What a reply on the way is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// AUTH of a new connection.
    Auth,
    /// SELECT of a new connection.
    Select,
    /// `INFO server`: the server's run_id and the native commands it has.
    Identity,
    /// The answer to command number `n` of the round.
    Answer(usize),
    /// An answer nobody waits for any more (a round decided without it).
    Skip,
}

/// What a pooled connection is fit for once `settle` read what came while
/// it was idle.
#[derive(Debug, PartialEq, Eq)]
pub enum Settled {
    /// It can carry a new command.
    Usable,
    /// The server closed it, or sent something nobody asked for: a new one
    /// is dialed.
    Unusable,
    /// An answer it still owed made no sense: what was sent behind it may
    /// yet run on that server, so the server counts as failed for this step
    /// (`Cause::Garbled`), as if the garbled answer had come in the round.
    Garbled(String),
}

/// How reading went.
#[derive(Debug, PartialEq, Eq)]
pub enum Fill {
    Some,
    Nothing,
    Closed,
}

pub struct Conn {
    stream: Stream,
    inbuf: Vec<u8>,
    /// Where the next reply starts in `inbuf`: replies cut are dropped in
    /// bulk (`compact`), not one by one (a pipeline of thousands of small
    /// replies would move the whole buffer for each).
    read_at: usize,
    cursor: Cursor,
    outbuf: Vec<u8>,
    /// Since when the socket has taken nothing of `outbuf`.
    unwritten_since: Option<Instant>,
    /// The last answer read, or the queueing of the oldest owed command if
    /// later: with answers owed, since when none has come.
    answered_at: Instant,
    /// Where the socket is read into (allocated once: no zeroing per read).
    scratch: Box<[u8]>,
    /// What each owed reply is for, and whether it may be an array.
    expect: VecDeque<(Expect, bool)>,
    /// Who the server is (its run_id, else its address), once asked.
    pub identity: Option<Vec<u8>>,
    /// `INFO server` was sent on this connection (its reply sets
    /// `identity` and `caps`).
    pub info_asked: bool,
    /// The native commands the server has, once its `INFO server` is in.
    pub caps: Option<Caps>,
    /// An answer nobody waited for was NOSCRIPT: the server lost our
    /// scripts (a restart, `SCRIPT FLUSH`). The next use sends its scripts
    /// as text, which loads them again; else a server that always answers
    /// after the round is decided would never get them back.
    pub lost_scripts: bool,
}

const READ_CHUNK: usize = 4096;

impl Conn {
    pub fn new(stream: Stream) -> Self {
        Self {
            stream,
            inbuf: Vec::new(),
            read_at: 0,
            cursor: Cursor::default(),
            outbuf: Vec::new(),
            unwritten_since: None,
            answered_at: Instant::now(),
            scratch: vec![0; READ_CHUNK].into_boxed_slice(),
            expect: VecDeque::new(),
            identity: None,
            info_asked: false,
            caps: None,
            lost_scripts: false,
        }
    }

    pub fn fd(&self) -> RawFd {
        self.stream.as_raw_fd()
    }

    pub fn peer(&self) -> String {
        self.stream.peer()
    }

    /// Queues a command and what its reply is for.
    pub fn push(&mut self, packed: &[u8], expect: Expect) {
        self.push_with(expect, |out| out.extend_from_slice(packed));
    }

    /// Queues a command written by `write` and what its reply is for.
    pub fn push_with(&mut self, expect: Expect, write: impl FnOnce(&mut Vec<u8>)) {
        if self.expect.is_empty() {
            self.answered_at = Instant::now();
        }
        write(&mut self.outbuf);
        self.expect.push_back((expect, false));
    }

    /// The reply to the command queued last may be an array.
    pub fn accept_array(&mut self) {
        if let Some((_, arrays)) = self.expect.back_mut() {
            *arrays = true;
        }
    }

    /// Replies still owed to this connection.
    pub fn owed(&self) -> impl Iterator<Item = &Expect> {
        self.expect.iter().map(|(e, _)| e)
    }

    /// Nobody waits for the owed answers any more: they are read and skipped
    /// (an `INFO server` among them is asked again at the next use).
    pub fn forget_answers(&mut self) {
        for (e, _) in self.expect.iter_mut() {
            if *e == Expect::Identity {
                self.info_asked = false;
            }
            *e = Expect::Skip;
        }
    }

    /// The answers owed to commands after number `i` will be skipped.
    pub fn skip_answers_after(&mut self, i: usize) {
        for (e, _) in self.expect.iter_mut() {
            if matches!(e, Expect::Answer(j) if *j > i) {
                *e = Expect::Skip;
            }
        }
    }

    pub fn wants_write(&self) -> bool {
        !self.outbuf.is_empty()
    }

    /// Writes what the socket takes now.
    pub fn flush(&mut self) -> io::Result<()> {
        while !self.outbuf.is_empty() {
            match self.stream.write(&self.outbuf) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => {
                    self.outbuf.drain(..n);
                    self.unwritten_since = None;
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.unwritten_since.get_or_insert_with(Instant::now);
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// How long the server has answered nothing while answers are owed
    /// (zero when none is).
    pub fn silent_for(&self) -> Duration {
        match self.expect.is_empty() {
            true => Duration::ZERO,
            false => self.answered_at.elapsed(),
        }
    }

    /// How long the socket has taken nothing of what waits to be written
    /// (zero when nothing waits): a server that reads nothing.
    pub fn stalled_for(&self) -> Duration {
        self.unwritten_since.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Reads what has arrived, without waiting. Stops early once more than a
    /// whole reply's worth is buffered: the cutter then rejects it.
    pub fn fill(&mut self) -> io::Result<Fill> {
        let mut got = Fill::Nothing;
        let cap = if self.expect.iter().any(|(_, arrays)| *arrays) { MAX_ARRAY } else { MAX_REPLY };
        self.compact();
        while self.inbuf.len() - self.read_at <= cap + 64 {
            match self.stream.read(&mut self.scratch) {
                Ok(0) => return Ok(if got == Fill::Some { Fill::Some } else { Fill::Closed }),
                Ok(n) => {
                    self.inbuf.extend_from_slice(&self.scratch[..n]);
                    got = Fill::Some;
                    // A short read drained the socket; a TLS stream may still
                    // hold decrypted bytes, so it is read until it would block.
                    if n < READ_CHUNK && !self.stream.buffers_internally() {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(got)
    }

    /// Waits in recv(2) for the next bytes until `deadline` (plain sockets;
    /// `None` for TLS, which must go through poll()). A signal or the
    /// deadline returns `Fill::Nothing`: the caller judges what to do.
    pub fn fill_waiting(&mut self, deadline: Instant) -> Option<io::Result<Fill>> {
        self.compact();
        let Stream::Plain(sock) = &mut self.stream else { return None };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Some(Ok(Fill::Nothing));
        }
        Some(match sock.recv_waiting(&mut self.scratch, left) {
            Ok(0) => Ok(Fill::Closed),
            Ok(n) => {
                self.inbuf.extend_from_slice(&self.scratch[..n]);
                Ok(Fill::Some)
            }
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => Ok(Fill::Nothing),
            Err(e) => Err(e),
        })
    }

    /// The next whole reply and what it is for; `None` until one is in.
    /// Bytes that no owed reply accounts for are an error.
    /// Drops the replies already cut once they are at least half the buffer.
    fn compact(&mut self) {
        if self.read_at > 0 && self.read_at * 2 >= self.inbuf.len() {
            self.inbuf.drain(..self.read_at);
            self.read_at = 0;
        }
    }

    pub fn next_reply(&mut self) -> Result<Option<(Expect, Reply)>, String> {
        let Some(&(expect, arrays)) = self.expect.front() else {
            return match self.inbuf.len() == self.read_at {
                true => Ok(None),
                false => Err("the server sent a reply nobody asked for".into()),
            };
        };
        match self.cursor.cut(&self.inbuf[self.read_at..], arrays)? {
            None => Ok(None),
            Some((reply, len)) => {
                self.read_at += len;
                self.expect.pop_front();
                self.answered_at = Instant::now();
                Ok(Some((expect, reply)))
            }
        }
    }

    /// Notes what an answer nobody waits for says of the server.
    pub fn skipped(&mut self, reply: &Reply) {
        if matches!(reply, Reply::Error(msg) if ErrorKind::of(msg) == ErrorKind::NoScript) {
            self.lost_scripts = true;
        }
    }

    /// Before reuse of a pooled connection: reads what arrived while it was
    /// idle, skipping the answers it still owed.
    pub fn settle(&mut self) -> Settled {
        match self.fill() {
            Ok(Fill::Closed) | Err(_) => return Settled::Unusable,
            Ok(_) => {}
        }
        loop {
            let owed = !self.expect.is_empty();
            match self.next_reply() {
                Ok(Some((Expect::Skip, reply))) => self.skipped(&reply),
                Err(why) if owed => return Settled::Garbled(why),
                Ok(Some(_)) | Err(_) => return Settled::Unusable,
                Ok(None) => return Settled::Usable,
            }
        }
    }
}
