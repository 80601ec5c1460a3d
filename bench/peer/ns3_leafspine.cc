// SPDX-License-Identifier: Apache-2.0
// ns3-leafspine: the peer benchmark's ns-3 side (issue 24 item 6). A
// leaf-spine of point-to-point links (every leaf to every spine, hosts on
// their leaf) with ns-3's IPv4/UDP stack and global routing, ECMP by a
// random next hop per packet (Ipv4GlobalRouting::RandomEcmpRouting; ns-3
// 3.37 has no per-flow hash). It runs the flows the fabric's deadlock
// runner would run on the same leaf-spine (leafspine_flows.h): each host
// sends its flows' packets round robin, one packet per frame time of its
// link (line rate, no congestion control), as a UDP datagram whose IPv4
// packet is --packet-bytes long.
//
// It counts what the fabric counts: packets forwarded = packets a switch
// started on an egress link (PhyTxBegin of every switch device; every
// packet here is data). It also counts packets sent and received by the
// hosts and every drop (queue discs, device queues, IP, sockets), and ends
// with one JSON object on stdout:
//   {"flows": N, "packets_forwarded": N, "packets_sent": ..., "wall_s": ..., "cpu_s": ..., ...}
// wall_s and cpu_s are this process's, from its start to the end of the
// run; run_wall_s the simulation loop alone.
//
// --drain runs until the network is empty (no stop at the window's end):
// then every packet sent was received or dropped, and --check fails (exit
// 1) when the counts say otherwise, one line per broken equation.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "leafspine_flows.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

using namespace ns3;

namespace {

const auto g_start = std::chrono::steady_clock::now();

double wall_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_start).count(); }

double cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct Counts {
  uint64_t sent = 0, received = 0, forwarded = 0, send_refused = 0;
  uint64_t drop_qdisc = 0, drop_device = 0, drop_ip = 0, drop_socket = 0;
  uint64_t drops() const { return drop_qdisc + drop_device + drop_ip + drop_socket; }
};
Counts g_count;

void on_forward(Ptr<const Packet>) { ++g_count.forwarded; }
void on_qdisc_drop(Ptr<const QueueDiscItem>) { ++g_count.drop_qdisc; }
void on_device_drop(Ptr<const Packet>) { ++g_count.drop_device; }
void on_socket_drop(Ptr<const Packet>) { ++g_count.drop_socket; }
void on_ip_drop(const Ipv4Header&, Ptr<const Packet>, Ipv4L3Protocol::DropReason, Ptr<Ipv4>, uint32_t) {
  ++g_count.drop_ip;
}

void on_receive(Ptr<Socket> s) {
  while (Ptr<Packet> p = s->Recv()) ++g_count.received;
}

// The sending side of one host: its started flows, served round robin, one
// packet per frame time of its link, so its device never queues.
class HostSender {
 public:
  HostSender(Ptr<Socket> socket, Time frame_time, uint32_t payload_bytes)
      : socket_(socket), frame_time_(frame_time), payload_bytes_(payload_bytes) {}

  void start_flow(Ipv4Address dst, uint64_t packets) {
    active_.push_back({InetSocketAddress(dst, kPort), packets});
    if (!busy_) send_next();
  }

  static constexpr uint16_t kPort = 9;

 private:
  struct Active {
    InetSocketAddress to;
    uint64_t left;
  };

  void send_next() {
    if (active_.empty()) {
      busy_ = false;
      return;
    }
    busy_ = true;
    Active a = active_.front();
    active_.pop_front();
    if (socket_->SendTo(Create<Packet>(payload_bytes_), 0, a.to) >= 0) ++g_count.sent;
    else ++g_count.send_refused;
    if (--a.left > 0) active_.push_back(a);
    Simulator::Schedule(frame_time_, &HostSender::send_next, this);
  }

  Ptr<Socket> socket_;
  Time frame_time_;
  uint32_t payload_bytes_;
  std::deque<Active> active_;
  bool busy_ = false;
};

std::string json_number(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.6g", x);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  Time::SetResolution(Time::PS);  // a 1502 B frame at 100 Gb/s lasts 120.16 ns

  unsigned spines = 16, leaves = 16, hosts_per_leaf = 16, fanin_min = 1, fanin_max = 1;
  double rate_gbps = 100, delay_ns = 2000, pair_load = 0.06, window_ms = 0.1;
  uint32_t packet_bytes = 1500;
  uint64_t seed = 1;
  std::string cdf, pairs = "all";
  bool drain = false, check = false, whole_packets = true;
  CommandLine cmd(__FILE__);
  cmd.Usage("The peer benchmark's ns-3 side: a leaf-spine running the fabric deadlock runner's flows "
            "(traffic.load_unit = leaf). Prints one JSON object.");
  cmd.AddValue("spines", "spine switches", spines);
  cmd.AddValue("leaves", "leaf switches", leaves);
  cmd.AddValue("hosts-per-leaf", "hosts on each leaf (H0.. on leaf 0, then leaf 1, ...)", hosts_per_leaf);
  cmd.AddValue("rate-gbps", "every link's rate, Gb/s", rate_gbps);
  cmd.AddValue("delay-ns", "every link's propagation delay, ns", delay_ns);
  cmd.AddValue("packet-bytes", "IPv4 packet bytes (UDP payload = this - 28; the link adds 2 B of PPP)", packet_bytes);
  cmd.AddValue("whole-packets", "flows rounded up to whole packets (the runner's traffic.whole_packets)", whole_packets);
  cmd.AddValue("cdf", "flow-size CDF file (data/*.cdf)", cdf);
  cmd.AddValue("pair-load", "offered load of each leaf pair, a fraction of the destination leaf's downlinks", pair_load);
  cmd.AddValue("pairs", "leaf pairs SRC>DST by leaf index, comma-separated, or 'all' (every ordered pair)", pairs);
  cmd.AddValue("fanin-min", "senders per burst, at least", fanin_min);
  cmd.AddValue("fanin-max", "senders per burst, at most", fanin_max);
  cmd.AddValue("seed", "the traffic's seed (the runner's) and ns-3's run number", seed);
  cmd.AddValue("window-ms", "simulated time; flows start within it", window_ms);
  cmd.AddValue("drain", "run until the network is empty instead of stopping at the window's end", drain);
  cmd.AddValue("check", "exit 1 unless the counts add up (sent = received + dropped with --drain)", check);
  cmd.Parse(argc, argv);
  if (cdf.empty() || spines < 1 || leaves < 2 || hosts_per_leaf < 1 || packet_bytes <= 28 || window_ms <= 0 ||
      seed < 1) {
    std::fprintf(stderr, "ns3-leafspine: need --cdf FILE, spines >= 1, leaves >= 2, hosts-per-leaf >= 1, "
                         "packet-bytes > 28, window-ms > 0, seed >= 1 (--help)\n");
    return 2;
  }

  dsh::bench::LeafSpineTraffic traffic;
  traffic.leaves = leaves;
  traffic.hosts_per_leaf = hosts_per_leaf;
  traffic.host_gbps = rate_gbps;
  traffic.fanin_min = fanin_min;
  traffic.fanin_max = fanin_max;
  traffic.pair_load = pair_load;
  traffic.cdf_path = cdf;
  traffic.whole_packets = whole_packets;
  traffic.packet_bytes = packet_bytes;
  traffic.seed = seed;
  traffic.window_ms = window_ms;
  if (pairs == "all") {
    for (unsigned a = 0; a < leaves; ++a)
      for (unsigned b = 0; b < leaves; ++b)
        if (a != b) traffic.pairs.emplace_back(a, b);
  } else {
    std::istringstream in(pairs);
    std::string item;
    while (std::getline(in, item, ',')) {
      unsigned a = 0, b = 0;
      char gt = 0, extra = 0;
      if (std::sscanf(item.c_str(), "%u%c%u%c", &a, &gt, &b, &extra) != 3 || gt != '>') {
        std::fprintf(stderr, "ns3-leafspine: --pairs: '%s' is not SRC>DST\n", item.c_str());
        return 2;
      }
      traffic.pairs.emplace_back(a, b);
    }
  }
  std::vector<dsh::bench::FlowSpec> flows;
  try {
    flows = dsh::bench::leafspine_flows(traffic);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ns3-leafspine: %s\n", e.what());
    return 2;
  }

  RngSeedManager::SetSeed(1);
  RngSeedManager::SetRun(seed);
  Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));

  NodeContainer spine_nodes, leaf_nodes, host_nodes;
  spine_nodes.Create(spines);
  leaf_nodes.Create(leaves);
  host_nodes.Create(leaves * hosts_per_leaf);
  InternetStackHelper stack;
  stack.Install(spine_nodes);
  stack.Install(leaf_nodes);
  stack.Install(host_nodes);

  PointToPointHelper p2p;
  std::ostringstream rate;
  rate << rate_gbps << "Gbps";
  p2p.SetDeviceAttribute("DataRate", StringValue(rate.str()));
  p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(int64_t(delay_ns))));
  Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");  // a /30 per link
  NetDeviceContainer switch_devices, all_devices;
  std::vector<Ipv4Address> host_address(host_nodes.GetN());
  for (unsigned l = 0; l < leaves; ++l)
    for (unsigned s = 0; s < spines; ++s) {
      NetDeviceContainer d = p2p.Install(leaf_nodes.Get(l), spine_nodes.Get(s));
      addresses.Assign(d);
      addresses.NewNetwork();
      switch_devices.Add(d);
      all_devices.Add(d);
    }
  for (unsigned h = 0; h < host_nodes.GetN(); ++h) {
    NetDeviceContainer d = p2p.Install(host_nodes.Get(h), leaf_nodes.Get(h / hosts_per_leaf));
    host_address[h] = addresses.Assign(d).GetAddress(0);
    addresses.NewNetwork();
    switch_devices.Add(d.Get(1));
    all_devices.Add(d);
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();

  for (auto it = switch_devices.Begin(); it != switch_devices.End(); ++it)
    (*it)->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&on_forward));
  for (auto it = all_devices.Begin(); it != all_devices.End(); ++it) {
    (*it)->TraceConnectWithoutContext("MacTxDrop", MakeCallback(&on_device_drop));
    (*it)->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&on_device_drop));
    Ptr<TrafficControlLayer> tc = (*it)->GetNode()->GetObject<TrafficControlLayer>();
    if (Ptr<QueueDisc> q = tc->GetRootQueueDiscOnDevice(*it))
      q->TraceConnectWithoutContext("Drop", MakeCallback(&on_qdisc_drop));
  }
  Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv4L3Protocol/Drop", MakeCallback(&on_ip_drop));

  const Time frame_time = DataRate(rate.str()).CalculateBytesTxTime(packet_bytes + 2);  // PPP adds 2 B
  std::vector<std::unique_ptr<HostSender>> senders;
  for (unsigned h = 0; h < host_nodes.GetN(); ++h) {
    Ptr<Socket> rx = Socket::CreateSocket(host_nodes.Get(h), UdpSocketFactory::GetTypeId());
    rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), HostSender::kPort));
    rx->SetRecvCallback(MakeCallback(&on_receive));
    rx->TraceConnectWithoutContext("Drop", MakeCallback(&on_socket_drop));
    Ptr<Socket> tx = Socket::CreateSocket(host_nodes.Get(h), UdpSocketFactory::GetTypeId());
    tx->Bind();
    senders.push_back(std::make_unique<HostSender>(tx, frame_time, packet_bytes - 28));
  }
  uint64_t flow_packets = 0;
  for (const auto& f : flows) {
    const uint64_t n = (f.bytes + packet_bytes - 1) / packet_bytes;
    flow_packets += n;
    Simulator::Schedule(PicoSeconds(int64_t(f.start_ps)), &HostSender::start_flow, senders[f.src].get(),
                        host_address[f.dst], n);
  }

  const double setup_wall = wall_s(), setup_cpu = cpu_s();
  if (!drain) Simulator::Stop(PicoSeconds(int64_t(window_ms * 1e9)));  // the fabric's end_ps
  Simulator::Run();
  const double sim_ms = Simulator::Now().GetSeconds() * 1e3;
  const double run_wall = wall_s() - setup_wall, total_wall = wall_s(), total_cpu = cpu_s();
  Simulator::Destroy();

  const Counts& c = g_count;
  std::vector<std::string> broken;
  if (c.sent + c.send_refused > flow_packets) broken.push_back("sent + refused > the flows' packets");
  if (c.received + c.drops() > c.sent) broken.push_back("received + dropped > sent");
  if (drain) {
    if (c.sent + c.send_refused != flow_packets) broken.push_back("sent + refused != the flows' packets");
    if (c.received + c.drops() != c.sent) broken.push_back("received + dropped != sent");
    // Every packet crosses three switches (source leaf, spine, destination
    // leaf); a dropped one was forwarded by at most two of them.
    if (c.forwarded < 3 * c.received) broken.push_back("forwarded < 3 x received");
    if (c.forwarded > 3 * c.received + 2 * c.drops()) broken.push_back("forwarded > 3 x received + 2 x dropped");
  }
  std::printf(
      "{\"simulator\": \"ns-3 %s\", \"flows\": %zu, \"flow_packets\": %llu, \"packets_sent\": %llu, "
      "\"send_refused\": %llu, \"packets_received\": %llu, \"packets_forwarded\": %llu, "
      "\"drops\": {\"queue_disc\": %llu, \"device\": %llu, \"ip\": %llu, \"socket\": %llu}, "
      "\"in_flight\": %lld, \"sim_ms\": %s, \"setup_wall_s\": %s, \"setup_cpu_s\": %s, \"run_wall_s\": %s, "
      "\"wall_s\": %s, \"cpu_s\": %s, \"check\": \"%s\"}\n",
      DSH_NS3_VERSION, flows.size(), (unsigned long long)flow_packets, (unsigned long long)c.sent,
      (unsigned long long)c.send_refused, (unsigned long long)c.received, (unsigned long long)c.forwarded,
      (unsigned long long)c.drop_qdisc, (unsigned long long)c.drop_device, (unsigned long long)c.drop_ip,
      (unsigned long long)c.drop_socket, (long long)(c.sent - c.received - c.drops()), json_number(sim_ms).c_str(),
      json_number(setup_wall).c_str(), json_number(setup_cpu).c_str(), json_number(run_wall).c_str(),
      json_number(total_wall).c_str(), json_number(total_cpu).c_str(), broken.empty() ? "ok" : "broken");
  for (const auto& b : broken)
    std::fprintf(stderr, "ns3-leafspine: counts do not add up: %s (sent %llu, received %llu, dropped %llu, "
                         "forwarded %llu, flows' packets %llu)\n",
                 b.c_str(), (unsigned long long)c.sent, (unsigned long long)c.received,
                 (unsigned long long)c.drops(), (unsigned long long)c.forwarded, (unsigned long long)flow_packets);
  return check && !broken.empty() ? 1 : 0;
}
