# Flow-size CDF of the web search workload.
# Measured by Alizadeh et al., "Data Center TCP (DCTCP)", ACM SIGCOMM 2010
# (Fig. 4, query/background flow sizes in a production search cluster). The
# points below are the tabulation used by the HPCC ns-3 simulator
# (github.com/alibaba-edu/High-Precision-Congestion-Control,
# traffic_gen/WebSearch_distribution.txt), which the DSH paper's simulations
# used; we re-typed them, they are not read from that repository. Licence:
# the repository's traffic_gen folder states none; the simulator is built on
# ns-3 (GPL-2.0). These are 12 measured points (facts), not code.
# Columns: flow size in bytes, cumulative probability in percent. Between
# points sizes are interpolated linearly (as HPCC's custom_rand.py does).
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
