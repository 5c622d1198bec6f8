"""brasa.futures.Future: torch.futures.Future's Python API (wait, value, done, then,
add_done_callback, set_result, set_exception), used by asynchronous collectives
(`Work.get_future()`) and DDP communication hooks.

A future either completes when someone calls set_result / set_exception, or is backed by a
pending collective (a Work), which completes it when waited on: wait(), value() and done() wait
for or poll the Work. Callbacks run once the future completes, on the thread that completes it
(at once when it already has)."""
import threading

__all__ = ["Future", "collect_all", "wait_all"]


class Future:
    def __init__(self, *, devices=None):
        self._lock = threading.Lock()
        self._done = False
        self._value = None
        self._error = None
        self._callbacks = []
        self._waiter = None  # called by wait(): completes this future (a Work, or a parent)
        self._work = None  # the pending collective behind it, if any

    @classmethod
    def _of_work(cls, work):
        """The future of an asynchronous collective: completes with work.result()."""
        fut = cls()

        def finish():
            try:
                work.wait()
            except BaseException as e:  # noqa: B902 (the error is the future's)
                fut._complete(None, e)
            else:
                fut._complete(list(work.result()), None)

        fut._waiter = finish
        fut._work = work
        return fut

    def done(self):
        """Whether the future has a result or an error (polls a pending collective)."""
        if not self._done and self._work is not None and self._work.is_completed():
            self._drive()
        return self._done

    def _drive(self):
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not self._done:
            waiter()

    def wait(self):
        """Blocks until completed; returns the value or raises the error."""
        if not self._done:
            self._drive()
        if not self._done:
            raise RuntimeError("Future.wait: the future was never completed (no set_result, "
                               "set_exception or collective behind it)")
        if self._error is not None:
            raise self._error
        return self._value

    def value(self):
        """The value of a completed future (raises its error)."""
        return self.wait()

    def set_result(self, result):
        if self._done:
            raise RuntimeError("Future.set_result: the future is already completed")
        self._complete(result, None)

    def set_exception(self, result):
        if not isinstance(result, BaseException):
            raise TypeError(f"Future.set_exception: expected an exception, got "
                            f"{type(result).__name__}")
        if self._done:
            raise RuntimeError("Future.set_exception: the future is already completed")
        self._complete(None, result)

    def _complete(self, value, error):
        with self._lock:
            self._value, self._error, self._done = value, error, True
            callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            cb(self)

    def add_done_callback(self, callback):
        """Runs callback(self) once completed (now, if it is)."""
        with self._lock:
            if not self._done:
                self._callbacks.append(callback)
                return
        callback(self)

    def then(self, callback):
        """A future completed with callback(self) once this one completes (or with the error the
        callback raises). Waiting on it waits on this one."""
        child = Future()

        def run(parent):
            try:
                result = callback(parent)
            except BaseException as e:  # noqa: B902
                child._complete(None, e)
            else:
                child._complete(result, None)

        child._waiter = self.wait_quietly
        self.add_done_callback(run)
        return child

    def wait_quietly(self):
        """Completes this future (waiting on what is behind it) without raising its error."""
        if not self._done:
            self._drive()


def collect_all(futures):
    """A future completed with the list of `futures` once all of them complete."""
    out = Future()
    futures = list(futures)

    def finish():
        for f in futures:
            f.wait_quietly()

    out._waiter = finish
    remaining = [len(futures)]
    lock = threading.Lock()

    def one_done(_):
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            out._complete(futures, None)

    if not futures:
        out._complete([], None)
    for f in futures:
        f.add_done_callback(one_done)
    return out


def wait_all(futures):
    """Waits for every future; returns their values (raises the first error)."""
    return [f.wait() for f in futures]
