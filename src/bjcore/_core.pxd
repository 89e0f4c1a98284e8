# Declarations of the engine's Python edge (see _core.pyx).  DealerTrie lives in
# bjcore._dealer; it is cimported here too so that ``from bjcore._core cimport DealerTrie``
# keeps working.
from bjcore._dealer cimport DealerTrie
from bjcore._engine cimport Engine


cdef class UpcardEngine:
    cdef Engine e                     # the state the recursions are functions of
