"""booktools: executing, testing and timing the lessons of *Deep Learning, Measured*.

Nothing here is imported by a lesson; lessons import only ``coursekit``.
"""
