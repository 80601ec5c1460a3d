// SPDX-License-Identifier: Apache-2.0
#include "gtkw.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "mmu_model.h"

namespace dsh {

namespace {

// GTKWave's display flags (its TR_* bits): right-justified hexadecimal,
// decimal through a translate filter, binary; group start and end.
constexpr const char* kHex = "@22";
constexpr const char* kFiltered = "@2024";
constexpr const char* kBin = "@28";
constexpr const char* kGroupBegin = "@800200";
constexpr const char* kGroupEnd = "@1000200";

struct Widths {
  unsigned port, queue, size, cell, thr, qrec, prec, cnt, nq, np;
};

Widths widths_of(const Config& c, const RtlWidths& w) {
  // As dsh_mmu derives them (rtl/dsh_mmu.sv, rtl/dsh_pkg.sv).
  return {rtl_index_bits(c.n_ports), rtl_index_bits(c.n_queues), w.size_w, w.cell_w, w.cell_w + 3,
          3 * w.cell_w + 1,          2 * w.cell_w + 1,           w.cnt_w,  c.n_ports * c.n_queues, c.n_ports};
}

// A vector as GTKWave names it: "tb.dsh_mmu.x[7:0]"; width 0: a scalar.
// The chip's ports (x_i, x_o) are dsh_mmu's; everything else is in its one
// lane (gen_lanes[0].u_lane, rtl/dsh_lane.sv): the views are of one-lane
// chips (a chip with lanes writes no trace of a mismatch).
std::string vec(const std::string& name, unsigned width) {
  const bool port = name.find('.') == std::string::npos && name.size() > 2 &&
                    (name.compare(name.size() - 2, 2, "_i") == 0 || name.compare(name.size() - 2, 2, "_o") == 0);
  const std::string full = "tb.dsh_mmu." + (port ? name : "gen_lanes[0].u_lane." + name);
  return width ? full + "[" + std::to_string(width - 1) + ":0]" : full;
}
// Bit b of a vector: GTKWave counts from the most significant bit.
std::string bit(const std::string& name, unsigned width, unsigned b) {
  return "(" + std::to_string(width - 1 - b) + ")" + vec(name, width);
}

enum class Show { Hex, Bin, Region, OneHot };
struct Line {
  Show show;
  std::string name;  // empty: a group boundary, `label` its title
  std::string label;  // a group's title (on its start, Hex, and its end, Bin)
};

std::vector<Line> layout(const Config& c, const RtlWidths& rw, const std::vector<TraceEntry>& entries, bool stats) {
  const Widths w = widths_of(c, rw);
  std::vector<Line> v;
  auto group = [&](const std::string& title, std::vector<Line> body) {
    v.push_back({Show::Hex, "", title});
    v.insert(v.end(), body.begin(), body.end());
    v.push_back({Show::Bin, "", title});  // Bin marks the end
  };
  auto h = [](const std::string& n, unsigned width) { return Line{Show::Hex, vec(n, width), ""}; };
  auto b = [](const std::string& n) { return Line{Show::Bin, vec(n, 0), ""}; };
  group("inputs (sampled at the rising edge of their cycle)",
        {b("clk_i"), {Show::Bin, vec("deq_valid_i", 1), ""}, h("deq_port_i", w.port), h("deq_queue_i", w.queue),
         h("deq_cells_i", w.size), {Show::Bin, vec("enq_valid_i", 1), ""}, h("enq_port_i", w.port),
         h("enq_queue_i", w.queue), h("enq_cells_i", w.size)});
  // Stage flops and the records each stage reads live in their stage module
  // (u_stage_*); between the stages they travel packed in slots
  // (rtl/dsh_slot.svh), shown here by their parts.
  group("A: the enqueue waits a cycle (u_stage_in)",
        {b("u_stage_in.a_enq_v_q"), h("u_stage_in.a_enq_port_q", w.port), h("u_stage_in.a_enq_queue_q", w.queue),
         h("u_stage_in.a_enq_cells_q", w.size)});
  group("R: records read (u_stage_in)",
        {b("u_stage_in.r_deq_v_q"), h("u_stage_in.r_deq_port_q", w.port), h("u_stage_in.r_deq_queue_q", w.queue),
         h("u_stage_in.r_deq_cells_q", w.size), h("u_stage_in.r_deq_qrec_o", w.qrec), b("u_stage_in.r_enq_v_q"),
         h("u_stage_in.r_enq_port_q", w.port), h("u_stage_in.r_enq_queue_q", w.queue),
         h("u_stage_in.r_enq_cells_q", w.size), h("u_stage_in.r_enq_qrec_o", w.qrec)});
  group("D: the dequeue drains (u_stage_deq; rec = {qoff, hsp, hs, h})",
        {b("u_stage_deq.d_v_q"), h("u_stage_deq.d_port_q", w.port), h("u_stage_deq.d_queue_q", w.queue),
         h("u_stage_deq.d_cells_q", w.size), h("u_stage_deq.d_rec_q", w.qrec), h("u_stage_deq.d_prec_q", w.prec),
         b("u_stage_deq.d_go")});
  group("E: admission, state machines, events (u_stage_exec)",
        {b("u_stage_exec.e_deq_v_q"), h("u_stage_exec.e_deq_port_q", w.port), h("u_stage_exec.e_deq_queue_q", w.queue),
         h("u_stage_exec.e_deq_rec_q", w.qrec), h("u_stage_exec.e_dh_q", w.size), h("u_stage_exec.e_dw_q", w.size),
         b("u_stage_exec.e_enq_v_q"), h("u_stage_exec.e_enq_port_q", w.port), h("u_stage_exec.e_enq_queue_q", w.queue),
         h("u_stage_exec.e_enq_cells_q", w.size), h("u_stage_exec.e_enq_rec_q", w.qrec),
         {Show::OneHot, vec("e_region", 4), ""}, h("u_stage_exec.s_i", w.cell)});
  group("W: records written at the next edge (u_stage_wb)",
        {b("u_stage_wb.w_deq_we_q"), h("u_stage_wb.w_deq_port_q", w.port), h("u_stage_wb.w_deq_queue_q", w.queue),
         h("u_stage_wb.w_deq_qrec_q", w.qrec), b("u_stage_wb.w_enq_we_q"), h("u_stage_wb.w_enq_port_q", w.port),
         h("u_stage_wb.w_enq_queue_q", w.queue), h("u_stage_wb.w_enq_qrec_q", w.qrec),
         {Show::Region, vec("u_stage_wb.w_region_q", 3), ""}});
  group("outputs (results of the inputs 4 edges earlier)",
        {{Show::Region, vec("stat_region_o", 3), ""}, h("stat_t_o", w.thr), h("stat_s_o", w.cell),
         h("stat_error_o", 2), h("stat_qevt_valid_o", 2), h("stat_qevt_pause_o", 2), h("stat_qevt_port_o", 2 * w.port),
         h("stat_qevt_queue_o", 2 * w.queue), h("stat_pevt_valid_o", 2), h("stat_pevt_pause_o", 2),
         h("stat_pevt_port_o", 2 * w.port), b("quiet_o")});
  for (const TraceEntry& e : entries) {
    if (e.kind == TraceEntry::Queue) {
      const unsigned i = e.queue * c.n_ports + e.port;  // queue-major, as rtl_observe::queue_entry
      const std::string at = "[" + std::to_string(i) + "]";
      std::vector<Line> lines = {
          h("u_store.occ_h_q" + at, w.cell), h("u_store.occ_hs_q" + at, w.cell), h("u_store.occ_hsp_q" + at, w.cell),
          {Show::Bin, bit("u_store.qvalid_q", w.nq, i), ""}, {Show::Bin, bit("u_store.qoff_q", w.nq, i), ""},
          {Show::Bin, bit("qoff_o", w.nq, e.port * c.n_queues + e.queue), ""}};
      if (stats) lines.push_back(h("gen_stats.u_stats.u_drops.mem_q" + at, w.cnt));
      group("queue " + std::to_string(e.port) + "." + std::to_string(e.queue) + ": entry " + std::to_string(i),
            lines);
    } else {
      const std::string at = "[" + std::to_string(e.port) + "]";
      std::vector<Line> lines = {
          h("u_store.port_shared_q" + at, w.cell), h("u_store.port_hdrm_q" + at, w.cell),
          {Show::Bin, bit("u_store.pvalid_q", w.np, e.port), ""}, {Show::Bin, bit("u_store.poff_q", w.np, e.port), ""}};
      if (stats) lines.push_back(h("gen_stats.u_stats.u_ppause.mem_q" + at, w.cnt));
      group("port " + std::to_string(e.port), lines);
    }
  }
  return v;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f.flush()) throw std::runtime_error("cannot write " + path);
}

}  // namespace

std::vector<std::string> gtkw_signals(const Config& c, const RtlWidths& w, const std::vector<TraceEntry>& entries,
                                      bool stats) {
  std::vector<std::string> names;
  for (const Line& l : layout(c, w, entries, stats))
    if (!l.name.empty()) names.push_back(l.name);
  return names;
}

void write_gtkw(const std::string& gtkw_path, const Config& c, const RtlWidths& w, const GtkwView& v) {
  namespace fs = std::filesystem;
  const fs::path save = fs::absolute(gtkw_path);
  const fs::path stem = save.parent_path() / save.stem();
  const std::string region_filter = stem.string() + ".region.txt", onehot_filter = stem.string() + ".onehot.txt";
  const char* third = c.scheme == Scheme::DSH ? "insurance" : "headroom";
  // stat_region_o and w_region_q (dsh_pkg::Reg*), e_region one-hot {drop, headroom, shared, private}.
  write_text(region_filter, std::string("0 none\n1 private\n2 shared\n3 ") + third + "\n4 drop\n");
  write_text(onehot_filter, std::string("0 none\n1 private\n2 shared\n4 ") + third + "\n8 drop\n");

  std::ostringstream s;
  s << "[*] dsh_mmu trace view (docs/guide/debugging.md): one cycle is " << kRtlCyclePs / 1000
    << " ns, cycle c's inputs sampled at t = c * " << kRtlCyclePs / 1000 << " ns\n";
  s << "[dumpfile] \"" << fs::absolute(v.fst_path).string() << "\"\n";
  s << "[savefile] \"" << save.string() << "\"\n";
  s << "[timestart] " << v.start_ps << "\n";
  s << "[size] 1600 1000\n[pos] -1 -1\n";
  // Zoom -10: 2^10 ps a pixel, about 100 cycles across the window.
  s << "*-10.000000 " << v.marker_ps << ' ' << v.since_ps;
  for (int i = 1; i < 26; ++i) s << " -1";
  s << "\n[treeopen] tb.\n[treeopen] tb.dsh_mmu.\n[sst_width] 260\n[signals_width] 360\n";
  for (const Line& l : layout(c, w, v.entries, v.stats)) {
    if (l.name.empty()) {
      s << (l.show == Show::Hex ? kGroupBegin : kGroupEnd) << "\n-" << l.label << "\n";
      continue;
    }
    switch (l.show) {
      case Show::Hex: s << kHex << '\n'; break;
      case Show::Bin: s << kBin << '\n'; break;
      case Show::Region: s << kFiltered << "\n^1 " << region_filter << '\n'; break;
      case Show::OneHot: s << kFiltered << "\n^2 " << onehot_filter << '\n'; break;
    }
    s << l.name << '\n';
  }
  s << "[pattern_trace] 1\n[pattern_trace] 0\n";
  write_text(save.string(), s.str());
}

}  // namespace dsh
