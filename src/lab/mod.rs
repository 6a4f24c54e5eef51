//! The lab: simulated switches of every OS (each OS's personality behind
//! [`crate::targets::Lab`], chosen per switch by its OS), the project's test bed and a place to try everything
//! without hardware. A switch is an [`onyx::Config`](crate::onyx::Config) with saved
//! configuration files; its CLI ([`cli`]) reads commands with the same grammar as the parser
//! and applies them with the same semantics. [`device`] shares a switch between sessions
//! and injects faults, [`network`] cables the switches of a lab together and derives what
//! both ends of a cable decide (links, LLDP, BGP, MLAG) from a [`view`] of every switch built
//! once per change ([`watch`] sees the state files change), `show` prints every `show` command
//! from the switch and the network, [`term`] reads keystrokes and prints as Onyx prints,
//! [`server`] serves switches over SSH (and [`scp`] receives files for a switch that takes them).

mod cabling;
pub mod cli;
pub mod dataplane;
pub mod device;
mod faults;
pub mod frr;
mod help;
pub mod live;
pub mod network;
mod pipe;
pub mod scp;
pub mod server;
mod show;
pub mod term;
mod unmodeled;
pub mod view;
mod watch;

use std::io::{Read, Write};

pub use cli::{Reply, Session, Switch};
pub use device::{Device, Faults};
pub use network::{Cabling, Network};
pub use server::{Lab, Logins, Served, Spec};

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
