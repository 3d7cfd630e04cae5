"""The model's threads follow the cores other programs leave free (twinfs/reading/cores.py): llama.cpp's threads
spin while they wait, so one thread too many beside a busy program costs far more than a thread's share."""

import subprocess
import sys
import time

from twinfs.reading.checkpass import CheckPass
from twinfs.reading.cores import FIRST_LOOK, FreeCores, cores


class Counters:
    """A machine's busy seconds and this process's own, moved by hand; the clock moves with them."""

    def __init__(self):
        self.now = self.machine = self.own = 0.0
        self.slept: list[float] = []

    def spend(self, seconds: float, others: float, own: float = 0.0) -> None:
        self.now += seconds
        self.machine += (others + own) * seconds
        self.own += own * seconds

    def free(self, count: int = 2) -> FreeCores:
        return FreeCores(machine=lambda: self.machine, own=lambda: self.own, count=lambda: count,
                         clock=lambda: self.now, sleep=lambda s: (self.slept.append(s), self.spend(s, 0.0)))


def test_what_other_programs_use_is_taken_and_what_this_process_uses_is_not():
    counters = Counters()
    free = counters.free(count=2)
    assert free() == 2 and counters.slept == [FIRST_LOOK]  # nothing to compare with: it watches a moment first
    counters.spend(10.0, others=1.0, own=1.0)  # one busy program beside the model's own thread
    assert free() == 1
    counters.spend(10.0, others=0.0, own=2.0)  # the model's own two threads spinning: still free for it
    assert free() == 2
    counters.spend(10.0, others=0.4)  # a little background work leaves the core free
    assert free() == 2
    counters.spend(10.0, others=0.6)  # more than half a core counts as taken
    assert free() == 1
    counters.spend(10.0, others=3.0)  # never fewer than one
    assert free() == 1
    counters.spend(0.01, others=0.0)  # too soon to tell: the last answer stands
    assert free() == 1
    assert counters.slept == [FIRST_LOOK]


def test_a_busy_program_on_this_machine_takes_a_core():
    if cores() < 2:
        return  # one core: one thread whatever runs beside it (the arithmetic test covers the rest)
    spinning = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        free = FreeCores()
        free()
        time.sleep(1.0)
        assert free() <= cores() - 1
    finally:
        spinning.kill()
        spinning.wait()


def test_the_pass_runs_on_the_free_cores_and_on_one_thread_while_the_server_is_busy():
    free = {"cores": 2}
    checking = CheckPass(lambda: None, threads=2, free_cores=lambda: free["cores"])
    assert checking.threads_now() == 2
    free["cores"] = 1
    assert checking.threads_now() == 1
    free["cores"] = 8
    assert checking.threads_now() == 2  # never more than it was given
    checking.used()  # a search just now
    assert checking.threads_now() == 1
