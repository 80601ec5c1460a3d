// Source manifest of dsh_mmu: read by Verilator, lint and Yosys alike.
// Paths are relative to this file's directory; the package first, then
// leaves before their users. +incdir+: the headers (dsh_assert.svh,
// dsh_rec.svh, dsh_slot.svh) for verilator -F; the other tools add -I<rtl>
// themselves.
+incdir+.
dsh_pkg.sv
dsh_dt_calc.sv
dsh_size_terms.sv
dsh_limits.sv
dsh_thresh_pipe.sv
dsh_le_diff.sv
dsh_deq_drain.sv
dsh_enq_admit.sv
dsh_queue_fsm.sv
dsh_port_fsm.sv
dsh_idx_copies.sv
dsh_rec_store.sv
dsh_cnt_ram.sv
dsh_stats.sv
dsh_rd_port.sv
dsh_err_count.sv
dsh_fwd.sv
dsh_egress_pause.sv
dsh_stage_in.sv
dsh_stage_deq.sv
dsh_stage_exec.sv
dsh_stage_wb.sv
dsh_lane.sv
dsh_deq_route.sv
dsh_pool_prefix.sv
dsh_sum_tree.sv
dsh_mmu.sv
