"""patch.py IN OUT OLD NEW: copies IN to OUT with every occurrence (at least
one) of the bytes OLD replaced by NEW, of the same length: to fake a
library that another version made, or one for another CPU."""
import sys

data = open(sys.argv[1], "rb").read()
old, new = sys.argv[3].encode(), sys.argv[4].encode()
assert len(old) == len(new) and old in data, (old, new)
open(sys.argv[2], "wb").write(data.replace(old, new))
