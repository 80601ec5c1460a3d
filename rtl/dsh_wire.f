// Source manifest of the wire blocks beside dsh_mmu (spec §6.3–§6.6): PFC
// and PAUSE frames out of one port's qoff_o/poff_o, the receive side's
// timers, the PFC watchdog. Instanced per port by the integrator, not by
// dsh_mmu, so the MMU's own manifest (dsh_mmu.f) and every tool reading it
// are unchanged. Leaves before their users; +incdir+ for dsh_assert.svh.
+incdir+.
dsh_quanta_tick.sv
dsh_macc_tx_frame.sv
dsh_macc_rx_parse.sv
dsh_pfc_tx.sv
dsh_pfc_rx.sv
dsh_pfc_wdog.sv
dsh_wire_port.sv
