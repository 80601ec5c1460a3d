// SPDX-License-Identifier: Apache-2.0
#include "capture.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "flow_control.h"

namespace dsh::net {

namespace {

constexpr uint16_t kRoceV2Port = 4791;
constexpr uint8_t kCnpDscp = 48;  // RoCEv2 CNPs' DSCP (NIC default)

void put16(uint8_t* b, uint16_t v) {
  b[0] = uint8_t(v >> 8);
  b[1] = uint8_t(v);
}
void put32(uint8_t* b, uint32_t v) {
  put16(b, uint16_t(v >> 16));
  put16(b + 2, uint16_t(v));
}
void put_mac(uint8_t* b, uint64_t mac) {
  for (unsigned i = 0; i < 6; ++i) b[i] = uint8_t(mac >> (8 * (5 - i)));
}
void put_le32(std::FILE* f, uint32_t v) {
  const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  std::fwrite(b, 1, 4, f);
}
void put_le16(std::FILE* f, uint16_t v) {
  const uint8_t b[2] = {uint8_t(v), uint8_t(v >> 8)};
  std::fwrite(b, 1, 2, f);
}
uint32_t host_ip(uint32_t h) { return 0x0A000000u | ((h + 1) & 0xFFFF); }  // host h: 10.0.0.0 + h + 1

const char* event_name(Event::Kind k) {
  switch (k) {
    case Event::Pause: return "PAUSE";
    case Event::Resume: return "RESUME";
    case Event::PortPause: return "PORT_PAUSE";
    case Event::PortResume: return "PORT_RESUME";
  }
  return "?";
}

}  // namespace

std::set<std::pair<int, int>> capture_ports(const Topology& t, const std::string& links) {
  std::set<std::pair<int, int>> ports_;
  auto add_link = [&](int a, int b) {
    bool any = false;
    for (int x : {a, b}) {
      const int y = x == a ? b : a;
      const auto& specs = t.ports(x);
      for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].peer == y) {
          ports_.insert({x, int(i)});
          any = true;
        }
    }
    return any;
  };
  if (links.empty()) {
    for (size_t n = 0; n < t.n_nodes(); ++n)
      for (size_t i = 0; i < t.ports(int(n)).size(); ++i)
        if (t.ports(int(n))[i].peer >= 0) ports_.insert({int(n), int(i)});
  }
  size_t at = 0;
  while (at < links.size()) {
    size_t end = links.find(',', at);
    if (end == std::string::npos) end = links.size();
    const std::string name = links.substr(at, end - at);
    at = end + 1;
    bool found = false;
    for (size_t dash = name.find('-'); dash != std::string::npos && !found; dash = name.find('-', dash + 1)) {
      const int a = t.node(name.substr(0, dash)), b = t.node(name.substr(dash + 1));
      found = a >= 0 && b >= 0 && add_link(a, b);
    }
    if (!found)
      throw ConfigError("capture.links: \"" + name + "\" is not a link (A-B, two nodes' names joined by '-', e.g. " +
                        t.name(0) + "-" + t.name(t.ports(0).at(0).peer) + ")");
  }
  return ports_;
}

Capture::Capture(Fabric& fab, const std::string& path, const std::string& links)
    : fab_(fab), ports_(capture_ports(fab.topo(), links)) {
  pcap_ = std::fopen(path.c_str(), "wb");
  csv_ = pcap_ ? std::fopen((path + ".csv").c_str(), "w") : nullptr;
  if (!pcap_ || !csv_) {
    if (pcap_) std::fclose(pcap_);
    throw std::runtime_error("cannot write the capture " + path + (pcap_ ? ".csv" : ""));
  }
  // The global header: nanosecond-resolution magic, version 2.4, no
  // time-zone offset or accuracy, snap length, LINKTYPE_ETHERNET.
  put_le32(pcap_, 0xA1B23C4D);
  put_le16(pcap_, 2);
  put_le16(pcap_, 4);
  put_le32(pcap_, 0);
  put_le32(pcap_, 0);
  put_le32(pcap_, 65535);
  put_le32(pcap_, 1);
  std::fprintf(csv_, "t_ps,type,link,kind,queue,record\n");

  fab.on_wire = [this](const Port& port, const Pkt& p) {
    if (ports_.count({port.node, port.port})) packet(port, p);
  };
  auto chained = fab.on_control;
  fab.on_control = [this, chained](int sw, const Event& e) {
    if (ports_.count({sw, int(e.port)}))
      std::fprintf(csv_, "%llu,event,%s,%s,%u,\n", (unsigned long long)fab_.events().now(),
                   link_name(sw, int(e.port)).c_str(), event_name(e.kind), unsigned(e.queue));
    if (chained) chained(sw, e);
  };
}

Capture::~Capture() {
  std::fclose(pcap_);
  std::fclose(csv_);
}

std::string Capture::link_name(int node, int port) const {
  const Topology& t = fab_.topo();
  return t.name(node) + "-" + t.name(t.ports(node)[size_t(port)].peer);
}

void Capture::record(uint64_t t_ps, const uint8_t* bytes, uint32_t caplen, uint32_t origlen) {
  put_le32(pcap_, uint32_t(t_ps / 1000000000000ull));
  put_le32(pcap_, uint32_t(t_ps % 1000000000000ull / 1000));
  put_le32(pcap_, caplen);
  put_le32(pcap_, origlen);
  std::fwrite(bytes, 1, caplen, pcap_);
  ++records_;
}

void Capture::packet(const Port& port, const Pkt& p) {
  const uint64_t now = fab_.events().now();
  if (p.kind == Pkt::Pause) {
    pfc::Frame f;
    if (p.frame >= 0) {
      f = fab_.frame(p);
    } else {  // level mode: the event as frame mode's frame for it alone
      pfc::MacControl m;
      m.src = port_mac(port.node, port.port);
      const bool on = p.fc.kind == Event::Pause || p.fc.kind == Event::PortPause;
      const uint16_t time = on ? fab_.params().pause_quanta : 0;
      if (p.fc.kind == Event::Pause || p.fc.kind == Event::Resume) {
        std::array<uint16_t, pfc::kMaxClasses> times{};
        times[p.fc.queue & 7] = time;
        m.opcode = pfc::kOpPfc;
        m.words = pfc::pfc_words(uint8_t(1u << (p.fc.queue & 7)), times);
      } else {
        m.opcode = pfc::kOpPause;
        m.words = pfc::pause_words(time);
      }
      f = pfc::build_frame(m);
    }
    record(now, f.data(), pfc::kFrameBytes, pfc::kFrameBytes);
    const uint16_t op = uint16_t(f[14] << 8 | f[15]);
    std::fprintf(csv_, "%llu,frame,%s,%s,,%llu\n", (unsigned long long)now, link_name(port.node, port.port).c_str(),
                 op == pfc::kOpPfc ? "PFC" : "PAUSE", (unsigned long long)records_);
    return;
  }
  // Ethernet, IPv4, UDP, InfiniBand BTH: 54 bytes.
  std::array<uint8_t, 54> b{};
  put_mac(&b[0], port_mac(port.peer, port.peer_port));
  put_mac(&b[6], port_mac(port.node, port.port));
  put16(&b[12], 0x0800);
  const uint32_t frame_len = p.bytes > 4 ? p.bytes - 4 : p.bytes;  // without the FCS
  const uint16_t ip_len = uint16_t(frame_len > 14 ? frame_len - 14 : 0);
  uint8_t* ip = &b[14];
  const uint8_t dscp = p.kind == Pkt::Data ? p.dscp : p.kind == Pkt::Cnp ? kCnpDscp : fab_.params().class_dscp[p.cls];
  ip[0] = 0x45;
  ip[1] = uint8_t(dscp << 2 | (p.ecn ? 3 : 2));  // ECN-capable transport; CE when marked
  put16(ip + 2, ip_len);
  put16(ip + 6, 0x4000);  // don't fragment
  ip[8] = 64;
  ip[9] = 17;  // UDP
  put32(ip + 12, host_ip(p.src));
  put32(ip + 16, host_ip(p.dst));
  uint32_t sum = 0;
  for (unsigned i = 0; i < 20; i += 2) sum += uint32_t(ip[i] << 8 | ip[i + 1]);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  put16(ip + 10, uint16_t(~sum));
  uint8_t* udp = &b[34];
  put16(udp, uint16_t(0xC000 | (uint32_t(p.flow) & 0x3FFF)));  // source port: the flow
  put16(udp + 2, kRoceV2Port);
  put16(udp + 4, uint16_t(ip_len > 20 ? ip_len - 20 : 0));
  uint8_t* bth = &b[42];
  bth[0] = p.kind == Pkt::Data ? 0x04 : p.kind == Pkt::Cnp ? 0x81 : 0x11;  // RC SEND only, CNP, RC ACK
  put16(bth + 2, 0xFFFF);                                                   // partition key
  put32(bth + 4, uint32_t(p.flow) & 0xFFFFFF);                              // destination QP
  put32(bth + 8, p.seq & 0xFFFFFF);                                         // PSN
  record(now, b.data(), uint32_t(b.size()), std::max<uint32_t>(frame_len, uint32_t(b.size())));
}

}  // namespace dsh::net
