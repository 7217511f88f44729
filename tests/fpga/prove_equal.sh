# SPDX-License-Identifier: Apache-2.0
# Sourced by the netlist tests: prove_equal LOG "YOSYS COMMANDS" REF DUT succeeds when
# Yosys proves modules REF and DUT (after the commands, which read and parameterize them)
# equal for every input: a miter of the two and a SAT proof; the log is kept in LOG.
prove_equal() {
  yosys -q -l "$1" -p "$2; prep; flatten;
    miter -equiv -flatten -make_assert $3 $4 miter; hierarchy -top miter;
    sat -verify -prove-asserts miter" > /dev/null 2>&1
}
