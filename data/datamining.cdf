# Flow-size CDF of the data mining workload.
# Measured by Greenberg et al., "VL2: A Scalable and Flexible Data Center
# Network", ACM SIGCOMM 2009 (Fig. 2, flow sizes in a data-mining cluster).
# The points below are the tabulation in the Opera simulator's repository
# (github.com/TritonNetworking/opera-sim, Figure1_traffic/datamining.csv;
# Mellette et al., NSDI 2020), as cumulative fractions; we re-typed them
# (fractions as percent), they are not read from that repository. These are
# 17 measured points (facts), not code. The DSH paper cites VL2 [47] for
# its data mining workload and does not give its tabulation; the HPCC
# simulator's traffic_gen has none.
# Columns: flow size in bytes, cumulative probability in percent. Between
# points sizes are interpolated linearly (as for the other workloads).
100 0
180 8.5
250 14
560 33
900 47
1100 55
1870 65
3160 70
10000 80
100001 87.4
400000 90
1850000 95
10000000 97
30000000 98
100000000 99
250000000 99.5
1000000000 100
