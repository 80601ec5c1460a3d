// SPDX-License-Identifier: Apache-2.0
// Golden models of the frame-mode flow-control blocks (spec §6.3–§6.6):
// the MAC Control frame layout, the quanta tick, the PFC/PAUSE sender, the
// receive side's timers and the PFC watchdog. Each class is cycle-accurate
// with its RTL module (rtl/dsh_quanta_tick.sv, dsh_pfc_tx.sv,
// dsh_pfc_rx.sv, dsh_pfc_wdog.sv): out() gives the outputs of the current
// cycle from the state and the cycle's inputs, step() is the clock edge.
// Counters are kept in 64 bits; the RTL's wrap modulo 2^StatW.
// Plain C++17.
#pragma once

#include <array>
#include <cstdint>

namespace dsh::pfc {

constexpr uint64_t kCtrlDst = 0x0180C2000001;  // 01-80-C2-00-00-01, first byte on the wire first
constexpr uint16_t kEtherType = 0x8808;        // MAC Control
constexpr uint16_t kOpPause = 0x0001;          // IEEE 802.3 Annex 31B PAUSE
constexpr uint16_t kOpPfc = 0x0101;            // IEEE 802.1Qbb PFC
constexpr unsigned kFrameBytes = 60;           // minimum frame without the FCS
constexpr unsigned kWords = 9;                 // 16-bit words after the opcode
constexpr unsigned kMaxClasses = 8;

using Words = std::array<uint16_t, kWords>;
using Frame = std::array<uint8_t, kFrameBytes>;

// One MAC Control frame's fields (spec §6.4).
struct MacControl {
  uint64_t dst = kCtrlDst;
  uint64_t src = 0;
  uint16_t ethertype = kEtherType;
  uint16_t opcode = 0;
  Words words{};
};
// The 60 bytes: dst, src, EtherType, opcode, nine words, zero padding; each
// field most significant byte first.
Frame build_frame(const MacControl& f);
// PFC's words: enable vector in word 0, class j's time in word j+1.
Words pfc_words(uint8_t enable, const std::array<uint16_t, kMaxClasses>& times);
// PAUSE's words: the time in word 0.
Words pause_words(uint16_t time);

// cfg_quanta_per_cycle_i for a link of link_bps bit/s clocked at clock_hz
// (rounded down to FracW = 16 fraction bits); std::invalid_argument naming
// the value and the limit when it does not fit IntW = 8 integer bits or a
// rate is 0.
uint32_t quanta_per_cycle(uint64_t link_bps, uint64_t clock_hz);

// rtl/dsh_quanta_tick.sv (IntW = 8, FracW = 16).
class QuantaTick {
 public:
  static constexpr unsigned kFracW = 16, kIntW = 8;
  explicit QuantaTick(uint32_t quanta_per_cycle);  // IntW.FracW fixed point
  uint32_t quanta() const { return (acc_ + inc_) >> kFracW; }  // this cycle's
  void step() { acc_ = (acc_ + inc_) & ((1u << kFracW) - 1); }
 private:
  uint32_t inc_;
  uint32_t acc_ = 0;
};

// rtl/dsh_macc_tx_frame.sv.
class FrameBuilder {
 public:
  struct Out {
    bool req_ready = true;
    uint8_t tdata = 0;
    bool tvalid = false, tlast = false;
  };
  Out out(uint64_t dst, uint64_t src, uint16_t ethertype) const;
  // The clock edge: a request is taken when req_valid and idle.
  void step(bool req_valid, uint16_t opcode, const Words& words, bool tready);
  bool busy() const { return busy_; }
 private:
  bool busy_ = false;
  unsigned idx_ = 0;
  uint16_t opcode_ = 0;
  Words words_{};
};

// rtl/dsh_pfc_tx.sv: one port's PFC and PAUSE sender.
class PfcTx {
 public:
  struct Config {
    unsigned n_queues = 8;  // 1..8
    uint16_t pause_quanta = 0xFFFF;
    uint16_t refresh_quanta = 0x7FFF;
    uint64_t src_mac = 0;
  };
  struct In {
    uint8_t qoff = 0;  // bit j: class j paused by the MMU
    bool poff = false;
    uint32_t quanta = 0;  // quanta elapsed this cycle
    bool tready = true;
  };
  struct Out {
    uint8_t tdata = 0;
    bool tvalid = false, tlast = false;
    uint64_t stat_pfc_frames = 0, stat_pause_frames = 0;
  };
  explicit PfcTx(const Config& c);  // std::invalid_argument on n_queues outside 1..8
  Out out() const;
  void step(const In& in);
 private:
  Config c_;
  uint8_t mask_;
  uint8_t sent_ = 0;
  bool psent_ = false;
  uint16_t pfc_refresh_ = 0, pause_refresh_ = 0;
  bool last_pause_ = false;
  uint64_t pfc_frames_ = 0, pause_frames_ = 0;
  FrameBuilder builder_;
};

// rtl/dsh_macc_rx_parse.sv.
class MacControlParser {
 public:
  struct In {
    uint8_t tdata = 0;
    bool tvalid = false, tlast = false, tuser = false;
  };
  bool frame_valid() const { return valid_; }
  bool malformed() const { return bad_; }
  uint16_t opcode() const;
  Words words() const;
  void step(const In& in);
 private:
  unsigned len_ = 0;
  bool dst_ok_ = true, type_ok_ = true;
  std::array<uint8_t, 20> cap_{};  // bytes 14..33 of the last frame that reached them
  bool valid_ = false, bad_ = false;
};

// rtl/dsh_pfc_rx.sv: one link's receive side.
class PfcRx {
 public:
  struct In {
    MacControlParser::In axis;
    uint32_t quanta = 0;
    uint8_t ignore = 0;  // bit j: the watchdog ignores class j's pauses
  };
  struct Out {
    uint8_t tx_pause = 0, class_paused = 0, pfc_rx = 0;
    bool port_paused = false;
    uint64_t stat_pfc = 0, stat_pause = 0, stat_malformed = 0, stat_unknown = 0;
  };
  explicit PfcRx(unsigned n_queues);  // std::invalid_argument outside 1..8
  Out out(uint8_t ignore) const;
  void step(const In& in);
  uint16_t class_timer(unsigned j) const { return timer_[j]; }
  uint16_t port_timer() const { return port_timer_; }
 private:
  unsigned n_queues_;
  uint8_t mask_;
  MacControlParser parser_;
  std::array<uint16_t, kMaxClasses> timer_{};
  uint16_t port_timer_ = 0;
  uint64_t pfc_ = 0, pause_ = 0, malformed_ = 0, unknown_ = 0;
};

// rtl/dsh_pfc_wdog.sv: the watchdog of one (port, class).
class PfcWdog {
 public:
  enum class Action : uint8_t { Drop = 0, Forward = 1, Alert = 2 };  // 3 acts as Alert
  struct Config {
    uint32_t detect_polls = 2;   // 0: never detects
    uint32_t restore_polls = 2;  // 0 acts as 1
    uint8_t action = 0;          // Action, 2 bits
    unsigned poll_w = 16;        // the RTL's PollW: the counts saturate at 2^poll_w - 1
  };
  struct In {
    bool poll = false, pfc_rx = false, paused = false;
  };
  struct Out {
    bool storm = false, ignore_pause = false, drop = false;
    uint64_t stat_storms = 0, stat_restores = 0;
  };
  explicit PfcWdog(const Config& c);  // std::invalid_argument on poll_w outside 1..32, action > 3
  Out out() const;
  void step(const In& in);
 private:
  Config c_;
  uint32_t cnt_max_;
  bool storm_ = false;
  uint32_t cnt_ = 0;
  bool rx_seen_ = false, unpause_ = false, paused_prev_ = false, paused_poll_ = false;
  uint64_t storms_ = 0, restores_ = 0;
};

}  // namespace dsh::pfc
