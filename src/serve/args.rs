//! `kiln serve`'s usage and command line.

use crate::tools::args::{ArgError, Flags};

/// The port, unless told.
pub const DEFAULT_PORT: u16 = 8080;
/// The address, unless told: loopback only.
pub const DEFAULT_HOST: &str = "127.0.0.1";

pub fn usage() -> String {
    format!(
        "usage: kiln serve [--port N] [--host ADDR] [--open] [--syzygy DIR]
       play and analyse in the browser at the URL printed first (default
       {DEFAULT_HOST}:{DEFAULT_PORT}, this machine only; --port 0 picks a free port;
       --open runs xdg-open; --syzygy sets the engines' SyzygyPath); docs/serve.md"
    )
}

/// What `kiln serve` was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeArgs {
    pub port: u16,
    pub host: String,
    pub open: bool,
    pub syzygy: Option<String>,
}

impl ServeArgs {
    pub fn from_args(args: &[String]) -> Result<ServeArgs, ArgError> {
        let mut parsed = ServeArgs {
            port: DEFAULT_PORT,
            host: DEFAULT_HOST.to_string(),
            open: false,
            syzygy: None,
        };
        let mut flags = Flags::new(args);
        while let Some(flag) = flags.next_flag() {
            match flag {
                "--port" => parsed.port = flags.number(flag, 0..=u16::MAX)?,
                "--host" => {
                    let host = flags.value(flag)?;
                    if host.is_empty() || host.contains(['/', ' ', '"', '\'']) {
                        return Err(ArgError::BadValue {
                            flag: flag.to_string(),
                            value: host.to_string(),
                            expected: "a host name or IP address".to_string(),
                        });
                    }
                    parsed.host = host.to_string();
                }
                "--open" => parsed.open = true,
                "--syzygy" => parsed.syzygy = Some(flags.value(flag)?.to_string()),
                _ => return Err(ArgError::Unknown(flag.to_string())),
            }
        }
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::args::words;

    #[test]
    fn flags_and_defaults() {
        let plain = ServeArgs::from_args(&[]).unwrap();
        assert_eq!(
            (plain.port, plain.host.as_str(), plain.open),
            (8080, "127.0.0.1", false)
        );
        let set = ServeArgs::from_args(&words("--port 0 --host localhost --open")).unwrap();
        assert_eq!(
            (set.port, set.host.as_str(), set.open),
            (0, "localhost", true)
        );
        for bad in ["--port 70000", "--port", "--host a/b", "--listen"] {
            assert!(ServeArgs::from_args(&words(bad)).is_err(), "{bad}");
        }
    }
}
