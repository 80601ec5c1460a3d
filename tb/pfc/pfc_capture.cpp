// SPDX-License-Identifier: Apache-2.0
// The RTL PFC/PAUSE sender (dsh_pfc_tx, 7 classes) on a scripted sequence
// of the MMU's qoff/poff, its frames written to a pcap file (classic
// libpcap format with nanosecond timestamps, linktype 1 Ethernet; each
// frame's time is the cycle of its first byte at a 1 GHz clock; 60 bytes,
// no FCS). tb/pfc/check_tshark.py reads the file with tshark.
//
//   pfc_capture SCRIPT PCAP
// SCRIPT lines (# comments): "rate Q" (cfg_quanta_per_cycle_i, 8.16
// fixed point), "pause Q", "refresh Q" (quanta), "src MAC" (hex), then
// "CYCLE QOFF POFF" (cycle decimal, qoff hex) in increasing cycle order,
// and "end CYCLE". Prints the number of frames written.
#include <verilated.h>

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Vpfc_tx_capture.h"
#include "pfc.h"
#include "pfc_dut.h"

namespace {

struct Step {
  uint64_t cycle;
  uint32_t qoff;
  bool poff;
};

[[noreturn]] void fail(const std::string& msg) {
  std::fprintf(stderr, "pfc_capture: %s\n", msg.c_str());
  std::exit(2);
}

void put32(std::ofstream& o, uint32_t v) {
  const char b[4] = {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
  o.write(b, 4);
}
void put16(std::ofstream& o, uint16_t v) {
  const char b[2] = {char(v), char(v >> 8)};
  o.write(b, 2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) fail("usage: pfc_capture SCRIPT PCAP");
  std::ifstream in(argv[1]);
  if (!in) fail(std::string("cannot read the script ") + argv[1]);
  uint32_t rate = 12800, pause = 0xFFFF, refresh = 0x7FFF;
  uint64_t src = 0x020000000001, end = 0;
  std::vector<Step> steps;
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (const auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream ls(line);
    std::string w;
    if (!(ls >> w)) continue;
    bool ok = true;
    if (w == "rate") ok = bool(ls >> rate);
    else if (w == "pause") ok = bool(ls >> pause) && pause <= 0xFFFF;
    else if (w == "refresh") ok = bool(ls >> refresh) && refresh <= 0xFFFF;
    else if (w == "src") ok = bool(ls >> std::hex >> src);
    else if (w == "end") ok = bool(ls >> end);
    else {
      Step s{};
      int poff = 0;
      try {
        s.cycle = std::stoull(w);
      } catch (...) {
        ok = false;
      }
      ok = ok && (ls >> std::hex >> s.qoff >> std::dec >> poff) && (poff == 0 || poff == 1) && s.qoff < 0x80 &&
           (steps.empty() || steps.back().cycle < s.cycle);
      s.poff = poff;
      if (ok) steps.push_back(s);
    }
    if (!ok) fail(std::string(argv[1]) + ":" + std::to_string(n) + ": cannot read '" + line + "'");
  }
  if (!end) fail("the script has no 'end CYCLE' line");

  VerilatedContext ctx;
  Vpfc_tx_capture dut(&ctx);
  dsh::pfc::QuantaTick tick(rate);
  dut.cfg_pause_quanta_i = uint16_t(pause);
  dut.cfg_refresh_quanta_i = uint16_t(refresh);
  dut.cfg_src_mac_i = src;
  dut.m_axis_tready_i = 1;
  reset(dut);

  std::ofstream pcap(argv[2], std::ios::binary);
  if (!pcap) fail(std::string("cannot write ") + argv[2]);
  put32(pcap, 0xA1B23C4D);  // nanosecond timestamps
  put16(pcap, 2);
  put16(pcap, 4);
  put32(pcap, 0);      // thiszone
  put32(pcap, 0);      // sigfigs
  put32(pcap, 65535);  // snaplen
  put32(pcap, 1);      // LINKTYPE_ETHERNET
  std::vector<uint8_t> frame;
  uint64_t first = 0, frames = 0;
  size_t next = 0;
  for (uint64_t cycle = 0; cycle < end; ++cycle) {
    while (next < steps.size() && steps[next].cycle <= cycle) {
      dut.qoff_i = steps[next].qoff;
      dut.poff_i = steps[next].poff;
      ++next;
    }
    dut.quanta_i = tick.quanta();
    dut.eval();
    if (dut.m_axis_tvalid_o) {
      if (frame.empty()) first = cycle;
      frame.push_back(dut.m_axis_tdata_o);
      if (dut.m_axis_tlast_o) {
        put32(pcap, uint32_t(first / 1'000'000'000));
        put32(pcap, uint32_t(first % 1'000'000'000));
        put32(pcap, uint32_t(frame.size()));
        put32(pcap, uint32_t(frame.size()));
        pcap.write(reinterpret_cast<const char*>(frame.data()), std::streamsize(frame.size()));
        frame.clear();
        ++frames;
      }
    }
    clock(dut);
    tick.step();
  }
  if (!frame.empty()) fail("the run ended inside a frame: make 'end' later");
  pcap.close();
  if (!pcap) fail(std::string("writing ") + argv[2] + " failed");
  std::printf("%llu frames\n", (unsigned long long)frames);
  return ctx.gotError() ? 1 : 0;
}
