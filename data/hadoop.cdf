# Flow-size CDF of the Hadoop workload.
# Measured by Roy et al., "Inside the Social Network's (Datacenter) Network",
# ACM SIGCOMM 2015 (Facebook Hadoop cluster). The points below are the
# tabulation used by the HPCC ns-3 simulator
# (github.com/alibaba-edu/High-Precision-Congestion-Control,
# traffic_gen/FbHdp_distribution.txt), which the DSH paper's simulations
# used; we re-typed them, they are not read from that repository. Licence:
# the repository's traffic_gen folder states none; the simulator is built on
# ns-3 (GPL-2.0). These are 20 measured points (facts), not code.
# Columns: flow size in bytes, cumulative probability in percent. Between
# points sizes are interpolated linearly (as HPCC's custom_rand.py does).
0 0
100 1
200 2
300 5
350 15
400 20
500 30
600 40
700 50
1000 60
2000 67
7000 70
30000 72
50000 82
80000 87
120000 90
300000 95
1000000 97.5
2000000 99
10000000 100
