#!/bin/sh
# gpu001 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/1/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu002 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/1/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu003 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/1/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu004 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/1/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu005 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/2/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu006 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/2/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu007 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/2/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu008 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/2/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu009 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/3/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu010 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/3/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu011 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/3/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu012 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/3/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu013 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/4/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu014 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/4/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu015 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/4/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu016 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/4/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu017 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/5/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu018 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/5/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu019 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/5/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu020 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/5/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu021 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/6/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu022 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/6/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu023 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/6/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu024 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/6/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu025 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/7/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu026 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/7/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu027 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/7/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu028 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/7/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu029 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/8/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu030 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/8/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu031 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/8/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu032 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf01 ethernet 1/8/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu033 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/1/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu034 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/1/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu035 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/1/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu036 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/1/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu037 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/2/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu038 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/2/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu039 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/2/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu040 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/2/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu041 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/3/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu042 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/3/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu043 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/3/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu044 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/3/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu045 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/4/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu046 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/4/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu047 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/4/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu048 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/4/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu049 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/5/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu050 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/5/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu051 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/5/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu052 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/5/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu053 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/6/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu054 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/6/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu055 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/6/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu056 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/6/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu057 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/7/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu058 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/7/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu059 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/7/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu060 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/7/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu061 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/8/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu062 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/8/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu063 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/8/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu064 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf02 ethernet 1/8/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu065 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/1/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu066 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/1/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu067 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/1/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu068 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/1/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu069 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/2/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu070 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/2/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu071 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/2/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu072 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/2/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu073 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/3/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu074 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/3/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu075 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/3/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu076 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/3/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu077 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/4/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu078 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/4/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu079 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/4/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu080 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/4/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu081 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/5/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu082 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/5/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu083 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/5/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu084 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/5/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu085 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/6/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu086 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/6/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu087 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/6/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu088 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/6/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu089 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/7/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu090 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/7/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu091 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/7/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu092 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/7/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu093 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/8/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu094 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/8/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu095 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/8/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu096 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf03 ethernet 1/8/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu097 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/1/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu098 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/1/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu099 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/1/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu100 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/1/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu101 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/2/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu102 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/2/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu103 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/2/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu104 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/2/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu105 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/3/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu106 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/3/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu107 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/3/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu108 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/3/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu109 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/4/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu110 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/4/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu111 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/4/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu112 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/4/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu113 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/5/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu114 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/5/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu115 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/5/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu116 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/5/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu117 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/6/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu118 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/6/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu119 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/6/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu120 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/6/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu121 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/7/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu122 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/7/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu123 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/7/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu124 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/7/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu125 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/8/1 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu126 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/8/2 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu127 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/8/3 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000

#!/bin/sh
# gpu128 (linux, ConnectX-6 Dx)
#   ens1f0 <-> leaf04 ethernet 1/8/4 (MTU 9216)
# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3; CNP: DSCP 48 -> priority 6 (strict)
set -eu
# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).

# ens1f0
mlnx_qos -i ens1f0 --trust dscp
mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0
# RDMA-CM connections, then every other RoCE connection of the device
cma_roce_tos -d mlx5_0 -t 106
echo 106 > /sys/class/infiniband/mlx5_0/tc/1/traffic_class
ip link set ens1f0 mtu 9000
