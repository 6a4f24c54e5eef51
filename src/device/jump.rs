//! `ProxyJump`: a connection to the next host through a bastion's SSH session, as a socket
//! the next SSH session can run over. The bastion opens a `direct-tcpip` channel to the next
//! host; libssh2's session needs a file descriptor, so one thread pumps bytes between that
//! channel and one end of a Unix socket pair, and the other end is handed over.
//!
//! The pump owns the bastion's session: it ends (closing the channel and the session) when
//! the session run over it is dropped, or when the bastion closes the channel.

use std::io::{ErrorKind, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use ssh2::{BlockDirections, Channel, Session};

/// Bytes held in one direction before reading more: the far side is slower.
const HELD: usize = 256 * 1024;

/// Keepalives to the bastion, as `ServerAliveInterval` would send them.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// Starts the pump between `channel` (of the bastion's `session`, whose socket is
/// `bastion_fd`) and a new socket pair; the socket for the next session.
pub fn tunnel(
    session: Session,
    channel: Channel,
    bastion_fd: RawFd,
) -> std::io::Result<UnixStream> {
    let (ours, theirs) = UnixStream::pair()?;
    ours.set_nonblocking(true)?;
    session.set_blocking(false);
    session.set_keepalive(true, KEEPALIVE.as_secs() as u32);
    std::thread::Builder::new()
        .name("ssh-proxy-jump".into())
        .spawn(move || pump(&session, channel, &ours, bastion_fd))?;
    Ok(theirs)
}

/// Copies both ways until either side is done.
fn pump(session: &Session, mut channel: Channel, sock: &UnixStream, bastion_fd: RawFd) {
    let mut buf = vec![0u8; 32 * 1024];
    // Socket → channel, and channel → socket.
    let (mut up, mut down): (Vec<u8>, Vec<u8>) = (Vec::new(), Vec::new());
    let mut channel_done = false;
    let mut last_keepalive = Instant::now();
    loop {
        let mut moved = false;
        if up.len() < HELD {
            match (&*sock).read(&mut buf) {
                // The session over the tunnel is gone: nothing more is wanted.
                Ok(0) => break,
                Ok(n) => {
                    up.extend_from_slice(&buf[..n]);
                    moved = true;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => break,
            }
        }
        if !up.is_empty() {
            match channel.write(&up) {
                Ok(n) => {
                    up.drain(..n);
                    moved |= n > 0;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => break,
            }
        }
        if !channel_done && down.len() < HELD {
            match channel.read(&mut buf) {
                Ok(0) => channel_done = channel.eof(),
                Ok(n) => {
                    down.extend_from_slice(&buf[..n]);
                    moved = true;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => channel_done = true,
            }
        }
        if !down.is_empty() {
            match (&*sock).write(&down) {
                Ok(n) => {
                    down.drain(..n);
                    moved |= n > 0;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => break,
            }
        }
        if channel_done && down.is_empty() {
            // The far host closed: the session over the tunnel reads the end.
            let _ = sock.shutdown(std::net::Shutdown::Write);
            break;
        }
        if last_keepalive.elapsed() >= KEEPALIVE {
            let _ = session.keepalive_send();
            last_keepalive = Instant::now();
        }
        if !moved {
            wait(session, sock, bastion_fd, up.len() < HELD, !down.is_empty());
        }
    }
    let _ = channel.close();
}

/// Sleeps until either socket can move something (at most a second, for keepalives).
fn wait(
    session: &Session,
    sock: &UnixStream,
    bastion_fd: RawFd,
    read_sock: bool,
    write_sock: bool,
) {
    let mut sock_events = 0;
    if read_sock {
        sock_events |= libc::POLLIN;
    }
    if write_sock {
        sock_events |= libc::POLLOUT;
    }
    // libssh2 says which way it is blocked; reading is always of interest (the far host may
    // speak at any time).
    let mut bastion_events = libc::POLLIN;
    if matches!(
        session.block_directions(),
        BlockDirections::Outbound | BlockDirections::Both
    ) {
        bastion_events |= libc::POLLOUT;
    }
    let mut fds = [
        libc::pollfd {
            fd: sock.as_raw_fd(),
            events: sock_events,
            revents: 0,
        },
        libc::pollfd {
            fd: bastion_fd,
            events: bastion_events,
            revents: 0,
        },
    ];
    // SAFETY: `fds` is a valid array of two pollfd for the duration of the call, and both
    // descriptors stay open while the pump runs (the socket is borrowed, the bastion's is
    // owned by its session).
    unsafe {
        libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 1000);
    }
}
