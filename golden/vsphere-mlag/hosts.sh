#!/bin/sh
# esxi-01 (esxi, ConnectX-5)
#   vmnic0 <-> tor-a ethernet 1/1 (MTU 9216)
#   vmnic1 <-> tor-b ethernet 1/1 (MTU 9216)
#   vmnic2 <-> tor-a ethernet 1/9 (MTU 9216)
#   vmnic3 <-> tor-b ethernet 1/9 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu

# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the
# lossless priorities (bit N = priority N). `-p` replaces the module's whole parameter
# string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).
esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08 trust_state=2"
esxcli network vswitch standard set -v vSwitch1 -m 9000
esxcli network vswitch standard set -v vSwitch2 -m 9000
esxcli network ip interface set -i vmk1 -m 9000
esxcli network ip interface set -i vmk2 -m 9000
# The module parameters take effect at the next boot: enter maintenance mode, then reboot.
# esxcli system maintenanceMode set --enable true && reboot

#!/bin/sh
# esxi-02 (esxi, ConnectX-5)
#   vmnic0 <-> tor-a ethernet 1/2 (MTU 9216)
#   vmnic1 <-> tor-b ethernet 1/2 (MTU 9216)
#   vmnic2 <-> tor-a ethernet 1/10 (MTU 9216)
#   vmnic3 <-> tor-b ethernet 1/10 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu

# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the
# lossless priorities (bit N = priority N). `-p` replaces the module's whole parameter
# string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).
esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08 trust_state=2"
esxcli network vswitch standard set -v vSwitch1 -m 9000
esxcli network vswitch standard set -v vSwitch2 -m 9000
esxcli network ip interface set -i vmk1 -m 9000
esxcli network ip interface set -i vmk2 -m 9000
# The module parameters take effect at the next boot: enter maintenance mode, then reboot.
# esxcli system maintenanceMode set --enable true && reboot

#!/bin/sh
# esxi-03 (esxi, ConnectX-5)
#   vmnic0 <-> tor-a ethernet 1/3 (MTU 9216)
#   vmnic1 <-> tor-b ethernet 1/3 (MTU 9216)
#   vmnic2 <-> tor-a ethernet 1/11 (MTU 9216)
#   vmnic3 <-> tor-b ethernet 1/11 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu

# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the
# lossless priorities (bit N = priority N). `-p` replaces the module's whole parameter
# string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).
esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08 trust_state=2"
esxcli network vswitch standard set -v vSwitch1 -m 9000
esxcli network vswitch standard set -v vSwitch2 -m 9000
esxcli network ip interface set -i vmk1 -m 9000
esxcli network ip interface set -i vmk2 -m 9000
# The module parameters take effect at the next boot: enter maintenance mode, then reboot.
# esxcli system maintenanceMode set --enable true && reboot

#!/bin/sh
# esxi-04 (esxi, ConnectX-5)
#   vmnic0 <-> tor-a ethernet 1/4 (MTU 9216)
#   vmnic1 <-> tor-b ethernet 1/4 (MTU 9216)
#   vmnic2 <-> tor-a ethernet 1/12 (MTU 9216)
#   vmnic3 <-> tor-b ethernet 1/12 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu

# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the
# lossless priorities (bit N = priority N). `-p` replaces the module's whole parameter
# string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).
esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08 trust_state=2"
esxcli network vswitch standard set -v vSwitch1 -m 9000
esxcli network vswitch standard set -v vSwitch2 -m 9000
esxcli network ip interface set -i vmk1 -m 9000
esxcli network ip interface set -i vmk2 -m 9000
# The module parameters take effect at the next boot: enter maintenance mode, then reboot.
# esxcli system maintenanceMode set --enable true && reboot

#!/bin/sh
# esxi-05 (esxi, ConnectX-5)
#   vmnic0 <-> tor-a ethernet 1/5 (MTU 9216)
#   vmnic1 <-> tor-b ethernet 1/5 (MTU 9216)
#   vmnic2 <-> tor-a ethernet 1/13 (MTU 9216)
#   vmnic3 <-> tor-b ethernet 1/13 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu

# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the
# lossless priorities (bit N = priority N). `-p` replaces the module's whole parameter
# string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).
esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08 trust_state=2"
esxcli network vswitch standard set -v vSwitch1 -m 9000
esxcli network vswitch standard set -v vSwitch2 -m 9000
esxcli network ip interface set -i vmk1 -m 9000
esxcli network ip interface set -i vmk2 -m 9000
# The module parameters take effect at the next boot: enter maintenance mode, then reboot.
# esxcli system maintenanceMode set --enable true && reboot

#!/bin/sh
# esxi-06 (esxi, ConnectX-5)
#   vmnic0 <-> tor-a ethernet 1/6 (MTU 9216)
#   vmnic1 <-> tor-b ethernet 1/6 (MTU 9216)
#   vmnic2 <-> tor-a ethernet 1/14 (MTU 9216)
#   vmnic3 <-> tor-b ethernet 1/14 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu

# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the
# lossless priorities (bit N = priority N). `-p` replaces the module's whole parameter
# string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).
esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08 trust_state=2"
esxcli network vswitch standard set -v vSwitch1 -m 9000
esxcli network vswitch standard set -v vSwitch2 -m 9000
esxcli network ip interface set -i vmk1 -m 9000
esxcli network ip interface set -i vmk2 -m 9000
# The module parameters take effect at the next boot: enter maintenance mode, then reboot.
# esxcli system maintenanceMode set --enable true && reboot

#!/bin/sh
# esxi-07 (esxi, ConnectX-5)
#   vmnic0 <-> tor-a ethernet 1/7 (MTU 9216)
#   vmnic1 <-> tor-b ethernet 1/7 (MTU 9216)
#   vmnic2 <-> tor-a ethernet 1/15 (MTU 9216)
#   vmnic3 <-> tor-b ethernet 1/15 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu

# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the
# lossless priorities (bit N = priority N). `-p` replaces the module's whole parameter
# string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).
esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08 trust_state=2"
esxcli network vswitch standard set -v vSwitch1 -m 9000
esxcli network vswitch standard set -v vSwitch2 -m 9000
esxcli network ip interface set -i vmk1 -m 9000
esxcli network ip interface set -i vmk2 -m 9000
# The module parameters take effect at the next boot: enter maintenance mode, then reboot.
# esxcli system maintenanceMode set --enable true && reboot

#!/bin/sh
# esxi-08 (esxi, ConnectX-5)
#   vmnic0 <-> tor-a ethernet 1/8 (MTU 9216)
#   vmnic1 <-> tor-b ethernet 1/8 (MTU 9216)
#   vmnic2 <-> tor-a ethernet 1/16 (MTU 9216)
#   vmnic3 <-> tor-b ethernet 1/16 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu

# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the
# lossless priorities (bit N = priority N). `-p` replaces the module's whole parameter
# string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).
esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08 trust_state=2"
esxcli network vswitch standard set -v vSwitch1 -m 9000
esxcli network vswitch standard set -v vSwitch2 -m 9000
esxcli network ip interface set -i vmk1 -m 9000
esxcli network ip interface set -i vmk2 -m 9000
# The module parameters take effect at the next boot: enter maintenance mode, then reboot.
# esxcli system maintenanceMode set --enable true && reboot
