// SPDX-License-Identifier: Apache-2.0
// A capture of the frames on some links, as a tap on each link sees them
// start: a pcap file (libpcap format, LINKTYPE_ETHERNET, nanosecond
// timestamps of simulated time) and, beside it (<file>.csv), the switches'
// MMU events on the captured links and the record number of every
// flow-control frame, with times in ps.
//
// Flow-control frames are written whole (60 bytes, no FCS). In frame mode
// they are the bytes on the wire; in level mode, whose frames carry the
// event itself, the capture shows each event as the frame that frame mode
// would send for it alone (PFC enabling the class, PAUSE for the port, time
// pause_quanta or 0). Data packets, CNPs and ACKs are written as their
// headers: Ethernet, IPv4 with the packet's DSCP, UDP to the RoCEv2 port
// 4791 and the InfiniBand base transport header; the record's original
// length is the packet's size less the FCS.
#pragma once

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fabric.h"

namespace dsh::net {

// The (node, port) pairs whose transmissions capture `links` ("A-B" by
// their nodes' names, comma-separated; empty: every link) of `t`: both
// directions of each. ConfigError naming a link that is not one.
std::set<std::pair<int, int>> capture_ports(const Topology& t, const std::string& links);

class Capture {
 public:
  // Captures the links named in `links` ("A-B" by their nodes' names,
  // comma-separated; empty: every link) of `fab` into `path` and
  // `path`.csv. Chains the fabric's on_control and sets its on_wire; the
  // capture must outlive the run. ConfigError naming a link that is not
  // one; std::runtime_error when a file cannot be written.
  Capture(Fabric& fab, const std::string& path, const std::string& links);
  ~Capture();
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

 private:
  void packet(const Port& port, const Pkt& p);
  void record(uint64_t t_ps, const uint8_t* bytes, uint32_t caplen, uint32_t origlen);
  std::string link_name(int node, int port) const;

  Fabric& fab_;
  std::FILE* pcap_ = nullptr;
  std::FILE* csv_ = nullptr;
  std::set<std::pair<int, int>> ports_;  // (node, port) whose transmissions are captured
  uint64_t records_ = 0;
};

}  // namespace dsh::net
