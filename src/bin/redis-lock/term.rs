//! The terminal for `top`: raw mode and the alternate screen while the
//! guard lives (restored when it drops: on `q`, an error, a panic's unwind),
//! SIGINT/SIGTERM/SIGHUP turned into a flag the loop sees, keys read with a
//! timeout, the window's size. Raw ANSI and termios, no crate.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A signal asked us to stop.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

pub fn stop_asked() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// The terminal as it was, put back on drop.
pub struct Raw {
    saved: libc::termios,
}

impl Raw {
    /// Raw mode (no echo, no line buffering, Ctrl-C as a key) and the
    /// alternate screen with the cursor hidden. Fails when stdin is not a terminal.
    pub fn enter() -> io::Result<Raw> {
        // SAFETY: isatty/tcgetattr/tcsetattr/sigaction on our own stdin and a zeroed, then filled, struct.
        unsafe {
            if libc::isatty(libc::STDIN_FILENO) != 1 {
                return Err(io::Error::other("top needs a terminal (stdin is not one)"));
            }
            let mut saved: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(libc::STDIN_FILENO, &mut saved) != 0 {
                return Err(io::Error::last_os_error());
            }
            let mut raw = saved;
            raw.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG | libc::IEXTEN);
            raw.c_iflag &= !(libc::IXON | libc::ICRNL);
            raw.c_cc[libc::VMIN] = 0;
            raw.c_cc[libc::VTIME] = 0;
            if libc::tcsetattr(libc::STDIN_FILENO, libc::TCSAFLUSH, &raw) != 0 {
                return Err(io::Error::last_os_error());
            }
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut act.sa_mask);
                libc::sigaction(sig, &act, std::ptr::null_mut());
            }
            let guard = Raw { saved };
            let mut out = io::stdout();
            out.write_all(b"\x1b[?1049h\x1b[?25l")?;
            out.flush()?;
            Ok(guard)
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let mut out = io::stdout();
        let _ = out.write_all(b"\x1b[0m\x1b[?25h\x1b[?1049l");
        let _ = out.flush();
        // SAFETY: puts back the settings read in enter().
        unsafe {
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSAFLUSH, &self.saved);
        }
    }
}

/// A key that `top` acts on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Key {
    Up,
    Down,
    Char(u8),
    /// Ctrl-C.
    Interrupt,
}

/// The keys typed within `wait` (returns at the first input, or empty
/// when the time is up or a signal came).
pub fn keys(wait: Duration) -> Vec<Key> {
    let mut fds = libc::pollfd { fd: libc::STDIN_FILENO, events: libc::POLLIN, revents: 0 };
    let ms = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one pollfd of ours.
    let ready = unsafe { libc::poll(&mut fds, 1, ms) };
    if ready <= 0 {
        return Vec::new();
    }
    let mut buf = [0u8; 64];
    // SAFETY: reads into our buffer, at most its length.
    let n = unsafe { libc::read(libc::STDIN_FILENO, buf.as_mut_ptr().cast(), buf.len()) };
    let Ok(n) = usize::try_from(n) else { return Vec::new() };
    if n == 0 && fds.revents & (libc::POLLHUP | libc::POLLERR) != 0 {
        // The terminal is gone: as good as a quit.
        return vec![Key::Interrupt];
    }
    parse(&buf[..n])
}

/// Keys from the bytes read: arrows (ESC [ A/B, ESC O A/B), Ctrl-C, bytes.
pub fn parse(bytes: &[u8]) -> Vec<Key> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i..] {
            [0x1b, b'[' | b'O', b'A', ..] => {
                out.push(Key::Up);
                i += 3;
            }
            [0x1b, b'[' | b'O', b'B', ..] => {
                out.push(Key::Down);
                i += 3;
            }
            [0x03, ..] => {
                out.push(Key::Interrupt);
                i += 1;
            }
            [b, ..] => {
                out.push(Key::Char(b));
                i += 1;
            }
            [] => break,
        }
    }
    out
}

/// Columns and rows of the terminal (80×24 when it does not say).
pub fn size() -> (usize, usize) {
    // SAFETY: TIOCGWINSZ fills a winsize of ours.
    unsafe {
        let mut ws: libc::winsize = std::mem::zeroed();
        if libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0 {
            return (usize::from(ws.ws_col), usize::from(ws.ws_row));
        }
    }
    (80, 24)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_and_letters_are_told_apart() {
        assert_eq!(parse(b"\x1b[Aj\x1bOB\x03q"), vec![Key::Up, Key::Char(b'j'), Key::Down, Key::Interrupt, Key::Char(b'q')]);
    }
}
