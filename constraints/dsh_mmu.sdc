# SPDX-License-Identifier: Apache-2.0
# Timing constraints of dsh_mmu (one clock domain, clk_i).
#
# Driven by Tcl variables so that one file serves every flow and target.
# Set any of them before sourcing this file (scripts/synth.py does); each
# has a default. Times are in the Liberty library's time unit and loads in
# its capacitance unit (ns and pF for sky130).
#
#   dsh_clock_period        clock period                              4.0 (250 MHz)
#   dsh_input_delay_frac    input delay, fraction of the period       0.2
#   dsh_output_delay_frac   output delay, fraction of the period      0.2
#   dsh_clock_uncertainty   setup uncertainty (jitter + skew margin)  0.0
#   dsh_driving_cell        Liberty cell that drives every data input "" (ideal)
#   dsh_output_load         load on every output                      0.005
#   dsh_cfg_false_path      1: no timing from cfg_* (see below)       1
#
# Reading it: the budget of a path from an input port is (1 - in_frac) of the
# period, to an output port (1 - out_frac), register to register the full
# period. The outputs of dsh_mmu are all registered, so output delay only
# matters once a wrapper adds logic after them.
#
# Every input and output is constrained, so that check_setup finds nothing
# (scripts/synth.py --check fails when it does). An output that synthesis
# tied to a constant (stat_pevt_pause_o[0] in some configurations: no flop
# drives it) has no path to time, and check_setup would call it an
# unconstrained endpoint: such outputs are found by OpenSTA's own constant
# propagation, given the output budget as a max delay (met by construction)
# and listed in dsh_constant_outputs ("port=value ...") for the report.

if {![info exists dsh_clock_period]}      { set dsh_clock_period 4.0 }
if {![info exists dsh_input_delay_frac]}  { set dsh_input_delay_frac 0.2 }
if {![info exists dsh_output_delay_frac]} { set dsh_output_delay_frac 0.2 }
if {![info exists dsh_clock_uncertainty]} { set dsh_clock_uncertainty 0.0 }
if {![info exists dsh_driving_cell]}      { set dsh_driving_cell "" }
if {![info exists dsh_output_load]}       { set dsh_output_load 0.005 }
if {![info exists dsh_cfg_false_path]}    { set dsh_cfg_false_path 1 }

create_clock -name clk_i -period $dsh_clock_period [get_ports clk_i]
if {$dsh_clock_uncertainty > 0} {
  set_clock_uncertainty -setup $dsh_clock_uncertainty [get_clocks clk_i]
}

# Every input but the clock and the reset is synchronous to clk_i.
set dsh_data_inputs [delete_from_list [all_inputs] [get_ports {clk_i rst_ni}]]
set_input_delay  [expr {$dsh_input_delay_frac  * $dsh_clock_period}] -clock clk_i $dsh_data_inputs
set_output_delay [expr {$dsh_output_delay_frac * $dsh_clock_period}] -clock clk_i [all_outputs]

# rst_ni is an asynchronous reset (asserted asynchronously; its release is
# synchronised outside this block), so it carries no single-cycle path: it
# has an input delay (it is an input like any other) and a false path.
set_input_delay  [expr {$dsh_input_delay_frac  * $dsh_clock_period}] -clock clk_i [get_ports rst_ni]
set_false_path -from [get_ports rst_ni]

# Outputs tied to a constant (see the header): sta::pin_sim_logic_value is
# OpenSTA's value of a pin after constant propagation (0, 1, X, ...). A
# top-level port's net has the port's name; its pins are the driver's.
set dsh_constant_outputs {}
if {[llength [info commands sta::pin_sim_logic_value]]} {
  foreach dsh_port [all_outputs] {
    set dsh_name [get_full_name $dsh_port]
    foreach dsh_pin [get_pins -quiet -of_objects [get_nets -quiet $dsh_name]] {
      set dsh_value [sta::pin_sim_logic_value $dsh_pin]
      if {$dsh_value eq "0" || $dsh_value eq "1"} {
        lappend dsh_constant_outputs "$dsh_name=$dsh_value"
        set_max_delay [expr {(1.0 - $dsh_output_delay_frac) * $dsh_clock_period}] -to $dsh_port
        break
      }
    }
  }
}

# cfg_* are static configuration: spec §9.1 and §9.4 (and the rtl/dsh_mmu.sv header) only
# allows them to change while rst_ni is held low, for at least 3 clock edges,
# and the threshold pipeline is refilled from them during that reset. A
# change therefore never has to propagate within one cycle, and a path from a
# cfg_* port is not a single-cycle path. Set dsh_cfg_false_path to 0 to time
# them anyway (a pessimistic check of the decision logic's cfg compares).
if {$dsh_cfg_false_path} {
  set_false_path -from [get_ports cfg_*]
}

if {$dsh_driving_cell ne ""} {
  set_driving_cell -lib_cell $dsh_driving_cell $dsh_data_inputs
}
set_load $dsh_output_load [all_outputs]
