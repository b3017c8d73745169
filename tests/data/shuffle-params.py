"""shuffle-params.py SEED IN OUT: writes params.def with its parameter rows
(each LAD_<TYPE>(...) call with the comment lines above it) in an order
drawn from SEED, the rest (the header, the LAD_SWEEP lines, the #undefs)
where it was. tests/t5110-infer-row-order.sh builds ladder from it."""
import random
import re
import sys

seed, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3]
text = open(src).read()
rows = []            # (start, end) of each row with its comment
pat = re.compile(r'^LAD_(STR|FMT|INT|BOOL|ENUM|FLOOR|WORD|ORDER)\(', re.M)
for m in pat.finditer(text):
    depth, i = 0, m.end() - 1
    while True:
        c = text[i]
        depth += c == '('
        depth -= c == ')'
        i += 1
        if depth == 0:
            break
    end = text.index('\n', i) + 1
    start = m.start()
    # the comment block right above the row belongs to it
    while True:
        prev = text.rfind('\n', 0, start - 1) + 1
        line = text[prev:start]
        if start > 0 and (line.startswith('/*') or line.startswith('**')) and \
                not line.startswith('/* ----'):
            start = prev
        else:
            break
    rows.append((start, end))
if len(rows) < 40:
    sys.exit('shuffle-params.py: found %d rows only' % len(rows))
pieces = [text[a:b] for a, b in rows]
order = list(range(len(pieces)))
random.Random(seed).shuffle(order)
out, at = [], 0
for k, (a, b) in enumerate(rows):
    out.append(text[at:a])
    out.append(pieces[order[k]])
    at = b
out.append(text[at:])
open(dst, 'w').write(''.join(out))
