# mpi_common.sh: how the tests start an Open MPI job on this one machine (sourced by tests/e2e/*mpi*.sh).
# Sets MPIRUN (an array: mpirun and its options) or exits 77 (skipped) when mpirun is missing.
# Every setting the tests need is here, each with its reason:
#   --oversubscribe                      more ranks than cores (-np 3 on a 2-core machine)
#   --bind-to none                       Open MPI pins each rank to a core by default, and the executors
#                                        and compilers a rank starts inherit the pinning
#   --mca btl self,vader                 one machine: shared memory only, no TCP interface scan
#   btl_vader_single_copy_mechanism=none vader's single copy (CMA, process_vm_readv) needs ptrace rights
#                                        that containers often lack; copying through the shared segment
#                                        always works
#   --allow-run-as-root                  as root (a container), mpirun refuses to start without it
# MPIRUN_INTERRUPT: for a test that interrupts the job. On Ctrl-C (or SIGTERM) mpirun sends SIGTERM to
# the ranks and SIGKILL odls_base_sigkill_timeout seconds later (default 1): rank 0 needs the time to
# finish the suite and report.json. mpirun itself then takes about that long to return (measured
# here: 5 s -> 7 s after Ctrl-C), and so does a job whose rank exits non-zero: hence not in MPIRUN.
command -v mpirun >/dev/null || { echo "skipped: mpirun is not installed (scripts/install-deps.sh: openmpi-bin)"; exit 77; }
export OMPI_MCA_btl_vader_single_copy_mechanism=none
MPIRUN=(mpirun --oversubscribe --bind-to none --mca btl self,vader)
[ "$(id -u)" -eq 0 ] && MPIRUN+=(--allow-run-as-root)
MPIRUN_INTERRUPT=(--mca odls_base_sigkill_timeout 5)
# An environment that cannot start any MPI job (no shared memory, a hostname that does not resolve,
# a sandbox without the ranks' sockets) is a missing capability like a missing mpirun: say why and skip.
# Only a trivial job (`true` on 2 ranks) is probed here; sympath's own code runs in the tests after it.
if ! probe=$(timeout 60 "${MPIRUN[@]}" -np 2 true 2>&1); then
    echo "skipped: this machine cannot run an Open MPI job (mpirun -np 2 true failed):"
    echo "$probe" | head -20
    exit 77
fi
