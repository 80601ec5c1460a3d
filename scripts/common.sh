# SPDX-License-Identifier: Apache-2.0
# Shared by scripts/run.sh and scripts/test.sh: install what is missing from
# Debian's archive, then configure and build (Release) into ./build.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${DSH_BUILD_DIR:-$ROOT/build}"
JOBS="${DSH_JOBS:-$(nproc)}"

DSH_PACKAGES=(
  cmake make g++ pkg-config python3 python3-matplotlib
  verilator libsystemc-dev libgtest-dev libgmock-dev
  libcli11-dev libtomlplusplus-dev nlohmann-json3-dev parallel
  yosys opensta nextpnr-ice40 fpga-icestorm fpga-icestorm-chipdb gtkwave lcov
  z3 cvc5
  tshark  # decodes the PFC/PAUSE frames: tb/pfc/check_tshark.py (RTL), tb/systemc/test_frames_tshark.py (switch model)
)

ensure_deps() { ensure_packages "${DSH_PACKAGES[@]}"; }

# ensure_packages PKG...: installs those of Debian's packages not installed
# (bench/peer.sh: libns3-dev, which the project's build does not need).
ensure_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # tshark's wireshark-common asks whether non-root users may capture; no.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo debconf-set-selections
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  echo "== configuring and building in $BUILD ($JOBS jobs)"
  mkdir -p "$BUILD"
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release "$@" >"$BUILD/configure.log" 2>&1 || {
    cat "$BUILD/configure.log"; exit 1; }
  # Verilator's CMake package learns a model's list of generated files when
  # Verilator runs, which after an RTL change is during the build: that build
  # can then fail to link, and the next one configures with the new list.
  # DSH_BUILD_TARGETS (space-separated): build only these, not everything.
  local targets=()
  [ -z "${DSH_BUILD_TARGETS:-}" ] || read -r -a targets <<<"--target $DSH_BUILD_TARGETS"
  cmake --build "$BUILD" -j "$JOBS" "${targets[@]}" || {
    echo "== build failed; building once more (Verilator's file lists may have changed)"
    cmake --build "$BUILD" -j "$JOBS" "${targets[@]}"; }
}
