// SPDX-License-Identifier: Apache-2.0
// Planted faults of the lockstep checker's self-test, kept out of the
// design. A fault forces signals of one design module to 0 in every
// instance of it (the module's fault module below is bound into it), chosen
// at run time with the plusarg +dsh_fault=N (none, or 0: no fault). Each
// cuts one forwarding path of dsh_fwd (spec §9.10), the counters' bypass,
// the drain order, or (with lanes, spec §9.12) the dequeues' merge or the
// pool rule's prefix sums, so that the checker shows it catches each.
//
// Simulation only: cosim/CMakeLists.txt and cosim/rtl_ondemand.cpp verilate
// this file after rtl/dsh_mmu.f's sources; synthesis never reads it.
// scripts/formal.py reads the force lines of this file (in the form
// `if (fault == FaultName) force module.signal = '0;`) and ties the same
// signals to 0 in Yosys, which reads neither bind nor force.
// cosim/mmu_model.h counts the faults (kRtlFaults); tb/lockstep checks that
// each one is caught.
//
// What a fault forces is a flop or a signal an always_comb block drives:
// the DFG optimiser of Verilator 5.006 can give the reader of a signal
// driven by a continuous assignment that signal's driver instead, which a
// force then misses. tb/faults/test_faults.cpp checks each fault against a
// model built without that optimiser.

// The fault modules share this file, so that the faults read as one table.
/* verilator lint_off DECLFILENAME */
package dsh_faults;
  localparam int unsigned FaultNone       = 0;
  localparam int unsigned FaultWQueue     = 1;   // stage W's queue records into stage R's reads
  localparam int unsigned FaultWPort      = 2;   // stage W's port records into stage R's reads
  localparam int unsigned FaultDDeq       = 3;   // D's dequeue into the next dequeue of its queue
  localparam int unsigned FaultDEnq       = 4;   // D's dequeue into E's next enqueue to its queue
  localparam int unsigned FaultDPort      = 5;   // D's drain into E's next enqueue to its port
  localparam int unsigned FaultE0Queue    = 6;   // E's dequeue slot into its queue's next reads
  localparam int unsigned FaultE1Queue    = 7;   // E's enqueue slot into its queue's next reads
  localparam int unsigned FaultE0Port     = 8;   // E's dequeue slot into its port's next reads
  localparam int unsigned FaultE1Port     = 9;   // E's enqueue slot into its port's next reads
  localparam int unsigned FaultCntBypass  = 10;  // a counter written in W into E's read of it
  localparam int unsigned FaultDrainOrder = 11;  // not a path: shared drains before headroom
  localparam int unsigned FaultMerge      = 12;  // lanes: dequeue slots of a lane's queue do not merge
  localparam int unsigned FaultPoolPrefix = 13;  // lanes: the pool rule without the lanes before (P_l = 0)

  // This run's fault: +dsh_fault=N, FaultNone without it.
  function automatic int unsigned planted();
    int unsigned n;
    if (!$value$plusargs("dsh_fault=%d", n)) n = FaultNone;
    return n;
  endfunction
endpackage

// Each module reads the plusarg once, at time 0, and forces in an
// always_comb block, which runs once when `fault` is set after the initial
// blocks and never again: no trigger for the simulator to check each cycle
// (an `always @(fault)` costs the 32 x 7 model 7 % of its instructions).
// Not in the initial block itself: Verilator 5.006 clears a force made
// there (it initialises the force's enable after the initial blocks run).
// A force in an always_comb block is, to lint, a latch of what it forces.
/* verilator lint_off LATCH */

// dsh_fwd: each forwarding path is one signal (path_*, a bit per select it
// feeds); a fault cuts one.
module dsh_fwd_faults;
  import dsh_faults::*;
  int unsigned fault;
  initial fault = planted();
  always_comb begin
    if (fault == FaultWQueue)  force dsh_fwd.path_wq = '0;
    if (fault == FaultWPort)   force dsh_fwd.path_wp = '0;
    if (fault == FaultDDeq)    force dsh_fwd.path_ddq = '0;
    if (fault == FaultDEnq)    force dsh_fwd.path_dde = '0;
    if (fault == FaultDPort)   force dsh_fwd.path_dp = '0;
    if (fault == FaultE0Queue) force dsh_fwd.path_e0q = '0;
    if (fault == FaultE1Queue) force dsh_fwd.path_e1q = '0;
    if (fault == FaultE0Port)  force dsh_fwd.path_e0p = '0;
    if (fault == FaultE1Port)  force dsh_fwd.path_e1p = '0;
  end
endmodule

// dsh_cnt_ram: stage E's value never takes the writes its read in D missed
// (no entry compares equal to one written), in every counter memory.
module dsh_cnt_ram_faults;
  import dsh_faults::*;
  int unsigned fault;
  initial fault = planted();
  always_comb begin
    if (fault == FaultCntBypass) force dsh_cnt_ram.hw_q = '0;
    if (fault == FaultCntBypass) force dsh_cnt_ram.hp_q = '0;
  end
endmodule

// dsh_deq_drain: the headroom part is taken as empty, so shared drains
// before headroom (the assertions still see the real h_i).
module dsh_deq_drain_faults;
  import dsh_faults::*;
  int unsigned fault;
  initial fault = planted();
  always_comb begin
    if (fault == FaultDrainOrder) force dsh_deq_drain.h = '0;
  end
endmodule

// dsh_deq_route: no slot merges into its lane's leader (they are not
// taken, and the leader's size alone is dequeued).
module dsh_deq_route_faults;
  import dsh_faults::*;
  int unsigned fault;
  initial fault = planted();
  always_comb begin
    if (fault == FaultMerge) force dsh_deq_route.merge_in = '0;    // the parallel form
    if (fault == FaultMerge) force dsh_deq_route.merge_slot = '0;  // the simulator's (dsh_deq_route)
  end
endmodule

// dsh_pool_prefix: each lane's pool compare leaves out the lanes before it
// (S' + s <= B_s), which lets lanes together fill S beyond B_s.
module dsh_pool_prefix_faults;
  import dsh_faults::*;
  int unsigned fault;
  initial fault = planted();
  always_comb begin
    if (fault == FaultPoolPrefix) force dsh_pool_prefix.p_before = '0;
  end
endmodule

bind dsh_fwd       dsh_fwd_faults       u_faults ();
bind dsh_deq_route   dsh_deq_route_faults   u_faults ();
bind dsh_pool_prefix dsh_pool_prefix_faults u_faults ();
bind dsh_cnt_ram   dsh_cnt_ram_faults   u_faults ();
bind dsh_deq_drain dsh_deq_drain_faults u_faults ();
