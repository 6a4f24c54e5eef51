//! The lab: simulated switches of every OS, the project's test bed and a place to try
//! everything without hardware. A switch ([`Switch`]) and a session on it ([`Session`]) are its
//! OS's, behind [`crate::targets::Lab`] (each OS's personality in its own folder: its CLI, its
//! `show` commands, its state folder's files). [`device`] shares a switch between sessions
//! and injects faults, [`network`] cables the switches of a lab together and derives what
//! both ends of a cable decide (links, LLDP, BGP, MLAG) from a [`view`] of every switch built
//! once per change ([`watch`] sees the state files change), [`term`] reads keystrokes and
//! prints them back as a switch's terminal does,
//! [`server`] serves switches over SSH (and [`scp`] receives files for a switch that takes them),
//! [`https`] the HTTP API of a switch whose OS has one.

mod cabling;
pub mod counters;
pub mod dataplane;
pub mod device;
mod faults;
pub mod frr;
pub mod https;
pub mod live;
pub mod network;
pub mod scp;
pub mod server;
mod switch;
pub mod term;
pub(crate) mod unmodeled;
pub mod view;
mod watch;

use std::io::{Read, Write};

pub use device::{Device, Faults};
pub use network::{Cabling, Network};
pub use server::{Lab, Logins, Served, Spec};
pub use switch::{Completion, Login, Reply, Session, Switch};

/// Runs one session of `device`'s CLI on standard input and output (`fabric lab --stdio`),
/// as a login shell would: an OpenSSH `sshd` can serve it as a `ForceCommand`.
pub fn run_stdio(device: &Device) -> std::io::Result<()> {
    let mut term = term::Term::new(device.login(), false, false);
    // Who and from where, as sshd tells its command (`SSH_CLIENT`: address, ports).
    let user = std::env::var("USER").unwrap_or_default();
    let host = std::env::var("SSH_CLIENT")
        .ok()
        .and_then(|c| c.split_whitespace().next().map(str::to_string))
        .unwrap_or_default();
    device.logged_in(term.id, &user, &host);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&term.greet(device))?;
    stdout.flush()?;
    let mut stdin = std::io::stdin().lock();
    let mut buf = [0u8; 4096];
    loop {
        let n = stdin.read(&mut buf)?;
        // At the end of the input a last line without its line end is still run.
        let outs = if n == 0 {
            let mut outs = term.finish(device);
            outs.push(term::Out::Close);
            outs
        } else {
            term.feed(device, &buf[..n])
        };
        // After a hang fault, input is read and nothing is answered.
        for out in outs {
            match out {
                term::Out::Data(d) => {
                    stdout.write_all(&d)?;
                    stdout.flush()?;
                }
                term::Out::Delay(d) => std::thread::sleep(d),
                term::Out::Close | term::Out::Exit(_) | term::Out::Drop => return Ok(()),
            }
        }
    }
}
