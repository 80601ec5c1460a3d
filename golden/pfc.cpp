// SPDX-License-Identifier: Apache-2.0
#include "pfc.h"

#include <stdexcept>
#include <string>

namespace dsh::pfc {

namespace {
uint16_t count_down(uint16_t t, uint32_t q) { return t > q ? uint16_t(t - q) : 0; }
uint8_t class_mask(unsigned n_queues, const char* who) {
  if (n_queues < 1 || n_queues > kMaxClasses)
    throw std::invalid_argument(std::string(who) + ": n_queues = " + std::to_string(n_queues) +
                                ", must be in 1..8");
  return uint8_t((1u << n_queues) - 1);
}
}  // namespace

Frame build_frame(const MacControl& f) {
  Frame b{};
  for (unsigned i = 0; i < 6; ++i) {
    b[i] = uint8_t(f.dst >> (8 * (5 - i)));
    b[6 + i] = uint8_t(f.src >> (8 * (5 - i)));
  }
  b[12] = uint8_t(f.ethertype >> 8);
  b[13] = uint8_t(f.ethertype);
  b[14] = uint8_t(f.opcode >> 8);
  b[15] = uint8_t(f.opcode);
  for (unsigned k = 0; k < kWords; ++k) {
    b[16 + 2 * k] = uint8_t(f.words[k] >> 8);
    b[17 + 2 * k] = uint8_t(f.words[k]);
  }
  return b;  // bytes 34..59: zero padding
}

Words pfc_words(uint8_t enable, const std::array<uint16_t, kMaxClasses>& times) {
  Words w{};
  w[0] = enable;
  for (unsigned j = 0; j < kMaxClasses; ++j) w[j + 1] = times[j];
  return w;
}

Words pause_words(uint16_t time) {
  Words w{};
  w[0] = time;
  return w;
}

uint32_t quanta_per_cycle(uint64_t link_bps, uint64_t clock_hz) {
  if (link_bps == 0 || clock_hz == 0)
    throw std::invalid_argument("quanta_per_cycle: link_bps = " + std::to_string(link_bps) + ", clock_hz = " +
                                std::to_string(clock_hz) + ": both must be above 0");
  if (link_bps > (uint64_t(1) << 40))
    throw std::invalid_argument("quanta_per_cycle: link_bps = " + std::to_string(link_bps) +
                                ", must be at most 2^40");
  const uint64_t v = (link_bps << QuantaTick::kFracW) / (512 * clock_hz);
  if (v >> (QuantaTick::kIntW + QuantaTick::kFracW))
    throw std::invalid_argument("quanta_per_cycle: " + std::to_string(link_bps) + " bit/s at " +
                                std::to_string(clock_hz) + " Hz is " + std::to_string(v) +
                                " / 2^16 quanta a cycle, must be below 2^24 (IntW = 8)");
  return uint32_t(v);
}

QuantaTick::QuantaTick(uint32_t quanta_per_cycle) : inc_(quanta_per_cycle) {
  if (inc_ >> (kIntW + kFracW))
    throw std::invalid_argument("QuantaTick: quanta_per_cycle = " + std::to_string(inc_) +
                                ", must be below 2^24 (IntW.FracW = 8.16)");
}

// ------------------------------------------------------------ frame builder
FrameBuilder::Out FrameBuilder::out(uint64_t dst, uint64_t src, uint16_t ethertype) const {
  Out o;
  o.req_ready = !busy_;
  o.tvalid = busy_;
  o.tlast = busy_ && idx_ == kFrameBytes - 1;
  if (busy_) o.tdata = build_frame(MacControl{dst, src, ethertype, opcode_, words_})[idx_];
  return o;
}

void FrameBuilder::step(bool req_valid, uint16_t opcode, const Words& words, bool tready) {
  if (req_valid && !busy_) {
    busy_ = true;
    idx_ = 0;
    opcode_ = opcode;
    words_ = words;
  } else if (busy_ && tready) {
    if (idx_ == kFrameBytes - 1) busy_ = false;
    else ++idx_;
  }
}

// ------------------------------------------------------------ sender
PfcTx::PfcTx(const Config& c) : c_(c), mask_(class_mask(c.n_queues, "PfcTx")) {}

PfcTx::Out PfcTx::out() const {
  const FrameBuilder::Out b = builder_.out(kCtrlDst, c_.src_mac, kEtherType);
  Out o;
  o.tdata = b.tdata;
  o.tvalid = b.tvalid;
  o.tlast = b.tlast;
  o.stat_pfc_frames = pfc_frames_;
  o.stat_pause_frames = pause_frames_;
  return o;
}

void PfcTx::step(const In& in) {
  const uint8_t qoff = in.qoff & mask_;
  const bool need_pfc = qoff != sent_ || (sent_ != 0 && pfc_refresh_ == 0);
  const bool need_pause = in.poff != psent_ || (psent_ && pause_refresh_ == 0);
  const bool pick_pause = need_pause && (!need_pfc || !last_pause_);
  const bool req_valid = need_pfc || need_pause;
  const bool take = req_valid && !builder_.busy();
  uint16_t opcode;
  Words words;
  if (pick_pause) {
    opcode = kOpPause;
    words = pause_words(in.poff ? c_.pause_quanta : 0);
  } else {
    opcode = kOpPfc;
    std::array<uint16_t, kMaxClasses> times{};
    for (unsigned j = 0; j < c_.n_queues; ++j) times[j] = (qoff >> j & 1) ? c_.pause_quanta : 0;
    words = pfc_words(uint8_t(qoff | sent_), times);
  }
  builder_.step(req_valid, opcode, words, in.tready);
  const bool take_pfc = take && !pick_pause, take_pause = take && pick_pause;
  if (take_pfc) sent_ = qoff;
  if (take_pause) psent_ = in.poff;
  pfc_refresh_ = take_pfc ? c_.refresh_quanta : count_down(pfc_refresh_, in.quanta);
  pause_refresh_ = take_pause ? c_.refresh_quanta : count_down(pause_refresh_, in.quanta);
  if (take) last_pause_ = pick_pause;
  pfc_frames_ += take_pfc;
  pause_frames_ += take_pause;
}

// ------------------------------------------------------------ parser
uint16_t MacControlParser::opcode() const { return uint16_t(cap_[0] << 8 | cap_[1]); }

Words MacControlParser::words() const {
  Words w{};
  for (unsigned k = 0; k < kWords; ++k) w[k] = uint16_t(cap_[2 + 2 * k] << 8 | cap_[3 + 2 * k]);
  return w;
}

void MacControlParser::step(const In& in) {
  valid_ = bad_ = false;
  if (!in.tvalid) return;
  const uint8_t d = in.tdata;
  bool dst_ok = dst_ok_, type_ok = type_ok_;
  if (len_ < 6) dst_ok = dst_ok && d == uint8_t(kCtrlDst >> (8 * (5 - len_)));
  if (len_ == 12 || len_ == 13) type_ok = type_ok && d == uint8_t(kEtherType >> (8 * (13 - len_)));
  if (len_ >= 14 && len_ <= 33) {
    for (unsigned i = 0; i + 1 < cap_.size(); ++i) cap_[i] = cap_[i + 1];
    cap_.back() = d;
  }
  const unsigned len_end = len_ == kFrameBytes + 1 ? len_ : len_ + 1;
  if (in.tlast) {
    const bool is_ctrl = (dst_ok && len_end >= 6) || (type_ok && len_end >= 14);
    const bool good = type_ok && len_end == kFrameBytes && !in.tuser;
    valid_ = good;
    bad_ = is_ctrl && !good;
    len_ = 0;
    dst_ok_ = type_ok_ = true;
  } else {
    len_ = len_end;
    dst_ok_ = dst_ok;
    type_ok_ = type_ok;
  }
}

// ------------------------------------------------------------ receive side
PfcRx::PfcRx(unsigned n_queues) : n_queues_(n_queues), mask_(class_mask(n_queues, "PfcRx")) {}

PfcRx::Out PfcRx::out(uint8_t ignore) const {
  Out o;
  for (unsigned j = 0; j < n_queues_; ++j) o.class_paused |= uint8_t((timer_[j] != 0) << j);
  o.port_paused = port_timer_ != 0;
  o.tx_pause = uint8_t((o.class_paused & ~ignore & mask_) | (o.port_paused ? mask_ : 0));
  if (parser_.frame_valid() && parser_.opcode() == kOpPfc) o.pfc_rx = uint8_t(parser_.words()[0] & mask_);
  o.stat_pfc = pfc_;
  o.stat_pause = pause_;
  o.stat_malformed = malformed_;
  o.stat_unknown = unknown_;
  return o;
}

void PfcRx::step(const In& in) {
  const bool valid = parser_.frame_valid();
  const uint16_t op = parser_.opcode();
  const Words w = parser_.words();
  const bool is_pfc = valid && op == kOpPfc, is_pause = valid && op == kOpPause;
  for (unsigned j = 0; j < n_queues_; ++j)
    timer_[j] = is_pfc && (w[0] >> j & 1) ? w[j + 1] : count_down(timer_[j], in.quanta);
  port_timer_ = is_pause ? w[0] : count_down(port_timer_, in.quanta);
  pfc_ += is_pfc;
  pause_ += is_pause;
  malformed_ += parser_.malformed();
  unknown_ += valid && !is_pfc && !is_pause;
  parser_.step(in.axis);
}

// ------------------------------------------------------------ watchdog
PfcWdog::PfcWdog(const Config& c) : c_(c) {
  if (c.poll_w < 1 || c.poll_w > 32)
    throw std::invalid_argument("PfcWdog: poll_w = " + std::to_string(c.poll_w) + ", must be in 1..32");
  if (c.action > 3)
    throw std::invalid_argument("PfcWdog: action = " + std::to_string(c.action) + ", must be in 0..3");
  cnt_max_ = c.poll_w == 32 ? 0xFFFFFFFFu : (1u << c.poll_w) - 1;
  if (c.detect_polls > cnt_max_ || c.restore_polls > cnt_max_)
    throw std::invalid_argument("PfcWdog: detect_polls = " + std::to_string(c.detect_polls) +
                                ", restore_polls = " + std::to_string(c.restore_polls) + ": must be at most " +
                                std::to_string(cnt_max_) + " (poll_w bits)");
}

PfcWdog::Out PfcWdog::out() const {
  Out o;
  o.storm = storm_;
  o.ignore_pause = storm_ && (c_.action == uint8_t(Action::Drop) || c_.action == uint8_t(Action::Forward));
  o.drop = storm_ && c_.action == uint8_t(Action::Drop);
  o.stat_storms = storms_;
  o.stat_restores = restores_;
  return o;
}

void PfcWdog::step(const In& in) {
  const bool rx_now = rx_seen_ || in.pfc_rx;
  const bool unpause_now = unpause_ || (paused_prev_ && !in.paused);
  const uint32_t cnt_inc = cnt_ == cnt_max_ ? cnt_ : cnt_ + 1;
  const bool counts = storm_ ? !rx_now
                             : in.paused && paused_poll_ && rx_now && !unpause_now && c_.detect_polls != 0;
  rx_seen_ = rx_now;
  unpause_ = unpause_now;
  if (in.poll) {
    const bool detect = !storm_ && counts && cnt_inc >= c_.detect_polls;
    const bool restore = storm_ && counts && cnt_inc >= c_.restore_polls;
    rx_seen_ = unpause_ = false;
    paused_poll_ = in.paused;
    cnt_ = counts ? cnt_inc : 0;
    if (detect || restore) {
      storm_ = !storm_;
      cnt_ = 0;
    }
    storms_ += detect;
    restores_ += restore;
  }
  paused_prev_ = in.paused;
}

}  // namespace dsh::pfc
