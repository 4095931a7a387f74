//! What a server says of itself in `INFO server`.

/// The `run_id:` line: one id per running server process.
pub fn run_id(info: &[u8]) -> Option<Vec<u8>> {
    info.split(|&b| b == b'\n')
        .find_map(|line| line.strip_prefix(b"run_id:"))
        .map(|id| id.trim_ascii().to_vec())
        .filter(|id| !id.is_empty())
}
