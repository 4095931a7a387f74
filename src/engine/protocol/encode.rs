//! Commands as RESP arrays of bulk strings. Keys and tokens travel only as
//! bulk-string arguments, never inside a script's text.

/// A command as a RESP array of bulk strings, appended to `out`.
pub fn resp(out: &mut Vec<u8>, args: &[&[u8]]) {
    out.reserve(16 + args.iter().map(|a| a.len() + 16).sum::<usize>());
    header(out, b'*', args.len());
    for arg in args {
        header(out, b'$', arg.len());
        out.extend_from_slice(arg);
        out.extend_from_slice(b"\r\n");
    }
}

/// A command as a RESP array of bulk strings, each given in pieces that are
/// joined on the wire, appended to `out`.
pub fn resp_pieces(out: &mut Vec<u8>, args: &[&[&[u8]]]) {
    header(out, b'*', args.len());
    args.iter().for_each(|pieces| bulk(out, pieces));
}

/// One bulk string, given in pieces.
pub fn bulk(out: &mut Vec<u8>, pieces: &[&[u8]]) {
    header(out, b'$', pieces.iter().map(|p| p.len()).sum());
    pieces.iter().for_each(|piece| out.extend_from_slice(piece));
    out.extend_from_slice(b"\r\n");
}

/// `*N\r\n` or `$N\r\n`.
pub fn header(out: &mut Vec<u8>, kind: u8, n: usize) {
    let mut text = itoa_buf();
    out.push(kind);
    out.extend_from_slice(format_int(&mut text, n as i64));
    out.extend_from_slice(b"\r\n");
}

pub fn itoa_buf() -> [u8; 20] {
    [0; 20]
}

/// Decimal text of a non-negative integer, written into `buf`.
pub fn format_int(buf: &mut [u8; 20], mut n: i64) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_pack_as_the_redis_crate_packs_them() {
        let mut out = Vec::new();
        resp(&mut out, &[b"SET", b"a\r\n*3\r\n\0", b"t"]);
        assert_eq!(out, redis::cmd("SET").arg(&b"a\r\n*3\r\n\0"[..]).arg("t").get_packed_command());
        let mut pieces = Vec::new();
        resp_pieces(&mut pieces, &[&[b"BLPOP"], &[b"{k}", b":w:", b"t"], &[b"1.5"]]);
        assert_eq!(pieces, redis::cmd("BLPOP").arg("{k}:w:t").arg("1.5").get_packed_command());
        assert_eq!(format_int(&mut itoa_buf(), i64::MAX), b"9223372036854775807");
    }
}
