"""The papermill engine the book executes its lessons with.

It is papermill's own nbclient engine with one change. When a cell shows an ipywidgets Output widget
(every ``interactive`` explorer does), nbclient stands in for JupyterLab: it captures what the widget
shows and sends it back to the kernel as a comm message on the shell channel, while another task is
reading that same channel. Now and then that deadlocks the cell: the kernel is idle and the executor
waits for ever (jupyter/nbclient#312; seen here twice in the explorer cells). An executed lesson never
needs the kernel to learn what its Output widgets display, so this engine captures as nbclient does and
sends nothing back.
"""

from nbclient.output_widget import OutputWidget
from papermill.clientwrap import PapermillNotebookClient
from papermill.engines import NBClientEngine, papermill_engines
from papermill.log import logger
from papermill.utils import merge_kwargs, remove_args

ENGINE_NAME = "booktools"


class CapturingOutputWidget(OutputWidget):
    """nbclient's stand-in for the Output widget, minus the message back to the kernel."""

    def sync_state(self) -> None:
        pass


class LessonClient(PapermillNotebookClient):
    """papermill's notebook client, using `CapturingOutputWidget` for Output widgets."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.widget_registry = {"@jupyter-widgets/output": {"OutputModel": CapturingOutputWidget}}


class LessonEngine(NBClientEngine):
    """papermill's nbclient engine, executing with `LessonClient`."""

    @classmethod
    def execute_managed_notebook(cls, nb_man, kernel_name, log_output=False, stdout_file=None,
                                 stderr_file=None, start_timeout=60, execution_timeout=None, **kwargs):
        kwargs = remove_args(["input_path", "timeout", "startup_timeout"], **kwargs)
        final_kwargs = merge_kwargs(kwargs, timeout=execution_timeout, startup_timeout=start_timeout,
                                    kernel_name=kernel_name, log=logger, log_output=log_output,
                                    stdout_file=stdout_file, stderr_file=stderr_file)
        return LessonClient(nb_man, **final_kwargs).execute()


papermill_engines.register(ENGINE_NAME, LessonEngine)
