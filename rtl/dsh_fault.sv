// The planted fault of the lockstep checker's self-test (dsh_pkg::Fault*):
// read once from the plusarg +dsh_fault=N at time 0, 0 (none) without it.
// Synthesis sees 0, so every path the fault could cut is kept.
`default_nettype none

module dsh_fault (
  output logic [31:0] fault_o
);
`ifdef SYNTHESIS
  assign fault_o = dsh_pkg::FaultNone;
`else
  int unsigned fault;
  initial if (!$value$plusargs("dsh_fault=%d", fault)) fault = dsh_pkg::FaultNone;
  assign fault_o = fault;
`endif
endmodule

`default_nettype wire
