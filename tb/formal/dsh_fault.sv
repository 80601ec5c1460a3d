// Formal stand-in for rtl/dsh_fault.sv: the planted fault as a constant,
// `DSH_FORMAL_FAULT (read_verilog -DDSH_FORMAL_FAULT=N), 0 without it. The
// simulation's plusarg +dsh_fault=N has no meaning in a proof, so
// scripts/formal.sh reads this file in place of the RTL's (one place).
`default_nettype none

module dsh_fault (
  output logic [31:0] fault_o
);
`ifdef DSH_FORMAL_FAULT
  assign fault_o = `DSH_FORMAL_FAULT;
`else
  assign fault_o = dsh_pkg::FaultNone;
`endif
endmodule

`default_nettype wire
