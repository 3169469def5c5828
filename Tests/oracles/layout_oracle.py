#!/usr/bin/env python3
"""An independent layout oracle for glass-gpu's view trees (test tooling only).

It makes seeded random view trees of stacks, spacers, colours and rectangles and
the layout modifiers (frames, flexible frames, padding, fixedSize, layoutPriority,
offset, overlay, background), lays each out by SwiftUI's rules as read here from
OpenSwiftUI's sources (github.com/OpenSwiftUIProject/OpenSwiftUI, files under
Sources/OpenSwiftUICore/, which say they were audited against SwiftUI 6), and
compares every view's frame with `glass-gpu layout --json`. It shares no code
with glass-gpu: the rules are written here again, from the sources, in the
shape those sources have (a layout computer per view answering size, placement,
spacing and priority).

    layout_oracle.py check GLASS_GPU SEED COUNT [--jobs N] [--keep DIR] [--limit K]
        Prints one JSON object: {"trees": COUNT, "agree": N, "failures": [...]},
        each failure {"tree": i, "scene": ..., "problem": ...} (at most K, 10 by
        default). Exit status 0 even when trees disagree: the caller judges.
    layout_oracle.py scene SEED INDEX
        Prints the scene file of one tree.
    layout_oracle.py expect SCENE.json
        Prints the frames this oracle expects for a scene file's body.
    layout_oracle.py reduce GLASS_GPU SCENE.json
        Prints the smallest tree found by removing children, modifiers and
        overlay content from SCENE.json's body that still disagrees (to debug).

The rules, each with the OpenSwiftUI file it comes from:

- Proposals: each dimension None (ideal), 0, a length, or inf.
- Color / Rectangle (Shape/Shape.swift): the proposal, None -> 10.
- Spacer (Layout/Separator/Spacer.swift): m = max(0, minLength or 8); along its
  stack's axis max(proposal or m, m), across 0; outside any stack the same on
  both axes. Its axis is the nearest enclosing HStack's or VStack's (a ZStack
  clears it), through modifiers, overlay and background content included
  (Modifier/ViewModifier/OverlayModifier.swift builds the secondary view with
  the same inputs). Spacing 0 on the edges along its axis (all edges without
  one); priority -inf; requires spacing projection.
- Spacing (Layout/Geometry/Spacing.swift): per edge the least distance wanted,
  None for no preference (leaves); between neighbours a, b: the larger of a's
  trailing/bottom and b's leading/top wishes that exist, else 8. A stack's
  `spacing:` replaces it (StackLayout.makeChildren).
- HStack / VStack (Layout/Stack/StackLayout.swift, HVStack.swift): one child:
  the child itself (isIdentityUnaryLayout). None: 0 x 0, spacing 0 all round,
  priority -inf (Layout/Layout.swift ViewLayoutEngine.layoutPriority). Else:
  priority 0, spacing = cross edges of every child, leading edge of the first,
  trailing edge of the last (max per edge). Sizing: with the main proposal None,
  every child ideal along main (cross proposal passed); else fitting order by
  priority (high first), then flexibility (max - min along main; equal infinite
  flexibilities: larger min first; stable); the first group's room is the
  proposal less the internal spacing less the mins of every lower-priority
  child; each later group gets its own mins back; each child in turn offered
  max(room / remaining, 0). The cross size is the union of the children's
  aligned cross ranges. Placing: the same under the proposal with a None cross
  replaced by the stack's cross size, children aligned within the union of
  their cross ranges from that pass.
- ZStack (Layout/Stack/ZStack.swift): one child: the child. None: 0 x 0,
  spacing 0, priority -inf. Else the max of the top-priority children's sizes
  under the proposal; placed with every child offered the bounds' size and
  aligned on the largest guide of the top-priority children; spacing the union
  of all children's; priority 0.
- padding (Layout/Modifier/PaddingLayout.swift): child offered max(0, p - insets),
  size max(0, child + insets), child at (leading, top); spacing reset on edges
  with a non-zero inset; priority 0.
- frame(width:height:) (Layout/Modifier/FrameLayout.swift _FrameLayout): both
  given -> that size; else child under (w or p.w, h or p.h) and (w or c.w,
  h or c.h); placed under that proposal, aligned; spacing: the child's if it
  requires projection, else reset on the given axes; priority 0.
- frame(min..ideal..max) (FrameLayout.swift _FlexFrameLayout, with
  FlexFrameIdealSizing): see flex_size / flex_place below.
- fixedSize (Layout/FixedSizeLayout.swift): child offered None on the fixed
  axes; centred; priority the child's; spacing the child's.
- layoutPriority (Layout/LayoutPriority.swift): priority x; the rest the child's
  (but not the spacer projection: it is a UnaryLayout).
- offset (Render/GeometryEffect/OffsetEffect.swift): no layout of its own: the
  child's answers, the child drawn moved.
- overlay / background (OverlayModifier.swift): the primary's answers; the
  secondary offered the primary's size and aligned on it.
- The root: offered the safe area's size and centred in it. Frames are then
  snapped edge by edge to device pixels (floor(v * scale + 0.5) / scale).
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

INF = math.inf
DEFAULT_SPACING = 8.0
EDGES = ("top", "leading", "bottom", "trailing")
H_FRACTION = {"leading": 0.0, "center": 0.5, "trailing": 1.0}
V_FRACTION = {"top": 0.0, "center": 0.5, "bottom": 1.0}
NAMED = {
    "topLeading": (0.0, 0.0), "top": (0.5, 0.0), "topTrailing": (1.0, 0.0),
    "leading": (0.0, 0.5), "center": (0.5, 0.5), "trailing": (1.0, 0.5),
    "bottomLeading": (0.0, 1.0), "bottom": (0.5, 1.0), "bottomTrailing": (1.0, 1.0),
}


# --- spacing -----------------------------------------------------------------

def spacing_leaf():
    return {e: None for e in EDGES}


def spacing_zero():
    return {e: 0.0 for e in EDGES}


def merge_edges(into, other, edges):
    out = dict(into)
    for e in edges:
        if other[e] is not None:
            out[e] = other[e] if out[e] is None else max(out[e], other[e])
    return out


def reset_edges(spacing, edges):
    out = dict(spacing)
    for e in edges:
        out[e] = None
    return out


def distance(before, after, axis):
    a = before["trailing" if axis == "h" else "bottom"]
    b = after["leading" if axis == "h" else "top"]
    if a is None and b is None:
        return DEFAULT_SPACING
    return max(a if a is not None else -INF, b if b is not None else -INF)


# --- views as layout computers ------------------------------------------------

def guide(length, fraction):
    """An alignment guide's value in a view of `length`: leading/top is 0,
    centre half the length, trailing/bottom the length (so 0 even for an
    infinite length, as SwiftUI's leading guide is)."""
    if fraction == 0:
        return 0.0
    return length if fraction == 1 else length * fraction


def pick(p, axis):
    return p[0] if axis == "h" else p[1]


def make(axis, main, cross):
    return (main, cross) if axis == "h" else (cross, main)


class View:
    """A layout computer: kind, path, children; size(p), place(x, y, w, h, p)."""

    def __init__(self, kind, path, children=()):
        self.kind = kind
        self.path = path
        self.children = list(children)
        self.memo = {}

    def size(self, p):
        if p not in self.memo:
            self.memo[p] = self.compute(p)
        return self.memo[p]

    # defaults: a leaf's
    def spacing(self):
        return spacing_leaf()

    def priority(self):
        return 0.0

    def projects(self):
        return False

    def layout(self, x, y, w, h, p, depth, out):
        out.append((self.kind, self.path, depth, (x, y, w, h)))
        if not self.children:
            return
        for child, (cx, cy, cp) in zip(self.children, self.placements(x, y, w, h, p)):
            cw, ch = child.size(cp)
            child.layout(cx, cy, cw, ch, cp, depth + 1, out)

    def placements(self, x, y, w, h, p):
        return []


class Color(View):
    def compute(self, p):
        return (10.0 if p[0] is None else p[0], 10.0 if p[1] is None else p[1])


class Spacer(View):
    def __init__(self, path, min_length, axis):
        super().__init__("spacer", path)
        self.m = max(0.0, DEFAULT_SPACING if min_length is None else min_length)
        self.axis = axis

    def compute(self, p):
        along = lambda v: max(self.m if v is None else v, self.m)
        if self.axis == "h":
            return (along(p[0]), 0.0)
        if self.axis == "v":
            return (0.0, along(p[1]))
        return (along(p[0]), along(p[1]))

    def spacing(self):
        if self.axis == "h":
            return {"top": None, "bottom": None, "leading": 0.0, "trailing": 0.0}
        if self.axis == "v":
            return {"top": 0.0, "bottom": 0.0, "leading": None, "trailing": None}
        return spacing_zero()

    def priority(self):
        return -INF

    def projects(self):
        return True


class Transparent(View):
    """A view whose layout is its (first) child's: one-child stacks."""

    def compute(self, p):
        return self.children[0].size(p)

    def placements(self, x, y, w, h, p):
        return [(x, y, p)]

    def spacing(self):
        return self.children[0].spacing()

    def priority(self):
        return self.children[0].priority()

    def projects(self):
        return self.children[0].projects()


class Stack(View):
    def __init__(self, kind, path, axis, cross_fraction, spacing, children):
        super().__init__(kind, path, children)
        self.axis = axis
        self.fraction = cross_fraction
        self.uniform = spacing
        self.gaps = [0.0] + [
            spacing if spacing is not None else distance(children[i - 1].spacing(), children[i].spacing(), axis)
            for i in range(1, len(children))]

    def spacing(self):
        if not self.children:
            return spacing_zero()
        cross = ("top", "bottom") if self.axis == "h" else ("leading", "trailing")
        s = spacing_leaf()
        for child in self.children:
            s = merge_edges(s, child.spacing(), cross)
        s = merge_edges(s, self.children[0].spacing(), ("leading",) if self.axis == "h" else ("top",))
        s = merge_edges(s, self.children[-1].spacing(), ("trailing",) if self.axis == "h" else ("bottom",))
        return s

    def priority(self):
        return -INF if not self.children else 0.0

    def sized(self, p):
        """Each child's proposal and size under p (StackLayout.placeChildren1)."""
        a = self.axis
        main = pick(p, a)
        cross = p[1] if a == "h" else p[0]
        n = len(self.children)
        props = [None] * n
        if main is None:
            props = [make(a, None, cross)] * n
        else:
            prios = [c.priority() for c in self.children]
            mins = [pick(c.size(make(a, 0.0, cross)), a) for c in self.children]
            maxs = [pick(c.size(make(a, INF, cross)), a) for c in self.children]

            def before(i, j):  # i strictly before j in fitting order
                if prios[i] != prios[j]:
                    return prios[i] > prios[j]
                di, dj = maxs[i] - mins[i], maxs[j] - mins[j]
                ei = -mins[i] if di == INF else 0.0
                ej = -mins[j] if dj == INF else 0.0
                if di == dj:
                    return ei < ej
                return di < dj

            order = []
            for i in range(n):  # insertion sort: stable
                k = len(order)
                while k > 0 and before(i, order[k - 1]):
                    k -= 1
                order.insert(k, i)
            room = main - sum(self.gaps)
            k = 0
            first = True
            while k < n:
                level = prios[order[k]]
                end = k
                while end < n and prios[order[end]] == level:
                    end += 1
                if first:
                    room -= sum(mins[order[j]] for j in range(end, n))
                    first = False
                else:
                    room += sum(mins[order[j]] for j in range(k, end))
                remaining = end - k
                for j in range(k, end):
                    i = order[j]
                    props[i] = make(a, max(room / remaining, 0.0), cross)
                    taken = pick(self.children[i].size(props[i]), a)
                    # inf - inf: the room stays as it was (mappingNaN).
                    room = room if math.isnan(room - taken) else room - taken
                    remaining -= 1
                k = end
        sizes = [c.size(q) for c, q in zip(self.children, props)]
        return props, sizes

    def ranges(self, sizes):
        """The cross range of the stack: the union of the children's ranges,
        each child's cross origin at minus its alignment guide (0 included)."""
        lo, hi = 0.0, 0.0
        for s in sizes:
            c = s[1] if self.axis == "h" else s[0]
            start = -guide(c, self.fraction)
            lo, hi = min(lo, start), max(hi, start + c)
        return lo, hi

    def compute(self, p):
        if len(self.children) == 1:
            return self.children[0].size(p)
        if not self.children:
            return (0.0, 0.0)
        _, sizes = self.sized(p)
        main = sum(self.gaps) + sum(pick(s, self.axis) for s in sizes)
        lo, hi = self.ranges(sizes)
        return make(self.axis, main, hi - lo)

    def placements(self, x, y, w, h, p):
        if len(self.children) == 1:
            return [(x, y, p)]
        if self.axis == "h":
            placing = (p[0], h if p[1] is None else p[1])
        else:
            placing = (w if p[0] is None else p[0], p[1])
        props, sizes = self.sized(placing)
        lo, _ = self.ranges(sizes)
        out = []
        position = x if self.axis == "h" else y
        for gap, q, s in zip(self.gaps, props, sizes):
            position += gap
            if self.axis == "h":
                out.append((position, y + (-guide(s[1], self.fraction) - lo), q))
                position += s[0]
            else:
                out.append((x + (-guide(s[0], self.fraction) - lo), position, q))
                position += s[1]
        return out


class ZStack(View):
    def __init__(self, path, alignment, children, kind="zstack"):
        super().__init__(kind, path, children)
        self.fx, self.fy = NAMED[alignment]

    def top(self):
        best = max(c.priority() for c in self.children)
        return [c for c in self.children if c.priority() == best]

    def compute(self, p):
        if len(self.children) == 1:
            return self.children[0].size(p)
        w = h = 0.0
        for c in (self.top() if self.children else []):
            cw, ch = c.size(p)
            w, h = max(w, cw), max(h, ch)
        return (w, h)

    def placements(self, x, y, w, h, p):
        if len(self.children) == 1:
            return [(x, y, p)]
        offer = (w, h)
        gx = max(guide(c.size(offer)[0], self.fx) for c in self.top())
        gy = max(guide(c.size(offer)[1], self.fy) for c in self.top())
        return [(x + gx - guide(c.size(offer)[0], self.fx), y + gy - guide(c.size(offer)[1], self.fy), offer)
                for c in self.children]

    def spacing(self):
        if not self.children:
            return spacing_zero()
        if len(self.children) == 1:
            return self.children[0].spacing()
        s = spacing_leaf()
        for c in self.children:
            s = merge_edges(s, c.spacing(), EDGES)
        return s

    def priority(self):
        if not self.children:
            return -INF
        return self.children[0].priority() if len(self.children) == 1 else 0.0

    def projects(self):
        return len(self.children) == 1 and self.children[0].projects()


class Unary(View):
    """A UnaryLayout: priority 0, the child's spacing, no projection, unless
    a subclass says otherwise."""

    @property
    def child(self):
        return self.children[0]

    def spacing(self):
        return self.child.spacing()


class Padding(Unary):
    def __init__(self, path, insets, child):
        super().__init__("padding", path, [child])
        self.t, self.l, self.b, self.r = insets

    def inner(self, p):
        w = None if p[0] is None else max(0.0, p[0] - (self.l + self.r))
        h = None if p[1] is None else max(0.0, p[1] - (self.t + self.b))
        return (w, h)

    def compute(self, p):
        cw, ch = self.child.size(self.inner(p))
        return (max(0.0, cw + self.l + self.r), max(0.0, ch + self.t + self.b))

    def placements(self, x, y, w, h, p):
        return [(x + self.l, y + self.t, self.inner(p))]

    def spacing(self):
        padded = [e for e, v in zip(("top", "leading", "bottom", "trailing"), (self.t, self.l, self.b, self.r))
                  if v != 0]
        return reset_edges(self.child.spacing(), padded)


class Frame(Unary):
    def __init__(self, path, width, height, alignment, child):
        super().__init__("frame", path, [child])
        self.w, self.h = width, height
        self.fx, self.fy = NAMED[alignment]

    def offer(self, p):
        return (self.w if self.w is not None else p[0], self.h if self.h is not None else p[1])

    def compute(self, p):
        if self.w is not None and self.h is not None:
            return (self.w, self.h)
        cw, ch = self.child.size(self.offer(p))
        return (self.w if self.w is not None else cw, self.h if self.h is not None else ch)

    def placements(self, x, y, w, h, p):
        q = self.offer(p)
        cw, ch = self.child.size(q)
        return [(x + guide(w, self.fx) - guide(cw, self.fx), y + guide(h, self.fy) - guide(ch, self.fy), q)]

    def spacing(self):
        s = self.child.spacing()
        if self.child.projects():
            return s
        edges = []
        if self.w is not None:
            edges += ["leading", "trailing"]
        if self.h is not None:
            edges += ["top", "bottom"]
        return reset_edges(s, edges)


class FlexFrame(Unary):
    def __init__(self, path, bounds, alignment, child):
        super().__init__("frame", path, [child])
        self.axes = [self.normalise(*bounds[0]), self.normalise(*bounds[1])]
        self.given = [any(v is not None for v in bounds[0]), any(v is not None for v in bounds[1])]
        self.fx, self.fy = NAMED[alignment]

    @staticmethod
    def normalise(lo, ideal, hi):
        # _FlexFrameLayout.init: min >= 0, ideal >= min, max >= ideal (not min).
        lo = None if lo is None else max(lo, 0.0)
        ideal = None if ideal is None else max(lo if lo is not None else 0.0, ideal)
        hi = None if hi is None else max(ideal if ideal is not None else 0.0, hi)
        return (lo, ideal, hi)

    @staticmethod
    def child_offer(b, p):
        lo, ideal, hi = b
        v = p if p is not None else ideal
        if v is None:
            return None
        return min(max(v, lo if lo is not None else -INF), hi if hi is not None else INF)

    @staticmethod
    def own(b, p):
        lo, ideal, hi = b
        if p is None:
            return ideal
        if lo is not None and hi is not None and lo <= hi:
            return min(max(p, lo), hi)
        return None

    @staticmethod
    def from_child(b, c, o):
        lo, _, hi = b
        if lo is not None and hi is not None and lo <= hi:
            return min(max(c, lo), hi)
        if lo is not None and hi is None:
            return max(min(o if o is not None else INF, c), lo)
        if hi is not None and lo is None:
            return min(max(o if o is not None else -INF, c), hi)
        return c

    def compute(self, p):
        own = [self.own(self.axes[0], p[0]), self.own(self.axes[1], p[1])]
        if own[0] is not None and own[1] is not None:
            return (own[0], own[1])
        o = (self.child_offer(self.axes[0], p[0]), self.child_offer(self.axes[1], p[1]))
        c = self.child.size(o)
        return tuple(own[k] if own[k] is not None else self.from_child(self.axes[k], c[k], o[k]) for k in (0, 1))

    def placements(self, x, y, w, h, p):
        def offer(b, size, prop):
            lo, ideal, hi = b
            inside = (lo if lo is not None else -INF) < size < (hi if hi is not None else INF)
            return None if (ideal is None and prop is None and inside) else size
        q = (offer(self.axes[0], w, p[0]), offer(self.axes[1], h, p[1]))
        cw, ch = self.child.size(q)
        return [(x + guide(w, self.fx) - guide(cw, self.fx), y + guide(h, self.fy) - guide(ch, self.fy), q)]

    def spacing(self):
        s = self.child.spacing()
        if self.child.projects():
            return s
        edges = (["leading", "trailing"] if self.given[0] else []) + (["top", "bottom"] if self.given[1] else [])
        return reset_edges(s, edges)


class FixedSize(Unary):
    def __init__(self, path, horizontal, vertical, child):
        super().__init__("fixedSize", path, [child])
        self.fh, self.fv = horizontal, vertical

    def offer(self, p):
        return (None if self.fh else p[0], None if self.fv else p[1])

    def compute(self, p):
        return self.child.size(self.offer(p))

    def placements(self, x, y, w, h, p):
        q = self.offer(p)
        cw, ch = self.child.size(q)
        return [(x + guide(w, 0.5) - guide(cw, 0.5), y + guide(h, 0.5) - guide(ch, 0.5), q)]

    def priority(self):
        return self.child.priority()


class Priority(Unary):
    def __init__(self, path, value, child):
        super().__init__("layoutPriority", path, [child])
        self.value = value

    def compute(self, p):
        return self.child.size(p)

    def placements(self, x, y, w, h, p):
        return [(x, y, p)]

    def priority(self):
        return self.value


class Offset(Transparent):
    def __init__(self, path, dx, dy, child):
        super().__init__("offset", path, [child])
        self.dx, self.dy = dx, dy

    def placements(self, x, y, w, h, p):
        return [(x + self.dx, y + self.dy, p)]


class Secondary(Transparent):
    def __init__(self, kind, path, alignment, primary, secondary):
        super().__init__(kind, path, [primary, secondary])
        self.fx, self.fy = NAMED[alignment]

    def placements(self, x, y, w, h, p):
        sw, sh = self.children[1].size((w, h))
        return [(x, y, p), (x + guide(w, self.fx) - guide(sw, self.fx), y + guide(h, self.fy) - guide(sh, self.fy),
                            (w, h))]


# --- reading a view tree (the scene format's view objects) --------------------

def build(view, path, axis):
    node = content(view, path, axis)
    for i, modifier in enumerate(view.get("modifiers", [])):
        node = wrap(modifier, node, f"{path}.modifiers[{i}]", axis)
    return node


def content(view, path, axis):
    t = view["type"]
    if t in ("color", "rectangle"):
        return Color("color", path)
    if t == "spacer":
        return Spacer(path, view.get("minLength"), axis)
    kids = view.get("children", [])
    if t in ("vstack", "hstack"):
        a = "v" if t == "vstack" else "h"
        children = [build(c, f"{path}.children[{i}]", a) for i, c in enumerate(kids)]
        fractions = H_FRACTION if a == "v" else V_FRACTION
        fraction = fractions[view.get("alignment", "center")]
        if len(children) == 1:
            return Transparent(t, path, children)
        return Stack(t, path, a, fraction, view.get("spacing"), children)
    if t == "zstack":
        children = [build(c, f"{path}.children[{i}]", None) for i, c in enumerate(kids)]
        return ZStack(path, view.get("alignment", "center"), children)
    raise ValueError(f"the oracle does not lay out {t}")


def wrap(modifier, node, path, axis):
    (name, value), = modifier.items()
    if name == "padding":
        if isinstance(value, (int, float)):
            return Padding(path, (value,) * 4, node)
        return Padding(path, tuple(float(value.get(e, 0)) for e in ("top", "leading", "bottom", "trailing")), node)
    if name == "frame":
        alignment = value.get("alignment", "center")
        flex = ("minWidth", "idealWidth", "maxWidth", "minHeight", "idealHeight", "maxHeight")
        if any(k in value for k in flex):
            def number(k):
                v = value.get(k)
                return INF if v == "infinity" else v
            bounds = ((number("minWidth"), number("idealWidth"), number("maxWidth")),
                      (number("minHeight"), number("idealHeight"), number("maxHeight")))
            return FlexFrame(path, bounds, alignment, node)
        return Frame(path, value.get("width"), value.get("height"), alignment, node)
    if name == "fixedSize":
        if isinstance(value, bool):
            return FixedSize(path, value, value, node)
        return FixedSize(path, value.get("horizontal", False), value.get("vertical", False), node)
    if name == "layoutPriority":
        return Priority(path, float(value), node)
    if name == "offset":
        return Offset(path, value.get("x", 0), value.get("y", 0), node)
    if name in ("overlay", "background"):
        secondary = build(value["content"], f"{path}.{name}.content", axis)
        return Secondary(name, path, value.get("alignment", "center"), node, secondary)
    raise ValueError(f"the oracle does not lay out the modifier {name}")


def expected(scene):
    """Every view's kind, path, depth and exact frame, parents first."""
    width, height = scene["size"]["width"], scene["size"]["height"]
    inset = scene.get("safeAreaInsets", {})
    top, leading = inset.get("top", 0), inset.get("leading", 0)
    bottom, trailing = inset.get("bottom", 0), inset.get("trailing", 0)
    bw, bh = max(0.0, width - leading - trailing), max(0.0, height - top - bottom)
    root = build(scene["body"], "body", None)
    p = (bw, bh)
    w, h = root.size(p)
    out = []
    root.layout(leading + (bw - w) / 2, top + (bh - h) / 2, w, h, p, 0, out)
    return out


# --- random trees -------------------------------------------------------------

def random_view(rng, depth):
    r = rng.random()
    if depth <= 0 or r < 0.35:
        leaf = rng.random()
        if leaf < 0.2:
            view = {"type": "spacer"}
            if rng.random() < 0.3:
                view["minLength"] = rng.choice([0, 4, 20])
        elif leaf < 0.6:
            view = {"type": "color", "color": rng.choice(["red", "blue", "green", "orange"])}
        else:
            view = {"type": "rectangle"}
            if rng.random() < 0.7:  # a fixed size
                view["modifiers"] = [{"frame": {"width": rng.randint(0, 60), "height": rng.randint(0, 60)}}]
    else:
        kind = rng.choice(["vstack", "hstack", "zstack", "vstack", "hstack"])
        view = {"type": kind}
        if kind == "vstack" and rng.random() < 0.5:
            view["alignment"] = rng.choice(["leading", "center", "trailing"])
        if kind == "hstack" and rng.random() < 0.5:
            view["alignment"] = rng.choice(["top", "center", "bottom"])
        if kind == "zstack" and rng.random() < 0.5:
            view["alignment"] = rng.choice(sorted(NAMED))
        if kind != "zstack" and rng.random() < 0.25:
            view["spacing"] = rng.choice([0, 3, 12])
        count = rng.choice([0, 1, 1, 2, 2, 3, 3, 4])
        view["children"] = [random_view(rng, depth - 1) for _ in range(count)]
    mods = view.setdefault("modifiers", [])
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        mods.append(random_modifier(rng, depth))
    if not mods:
        del view["modifiers"]
    return view


def random_modifier(rng, depth):
    kind = rng.choice(["padding", "frame", "flex", "fixedSize", "layoutPriority", "offset", "overlay",
                       "background", "padding", "frame", "flex"])
    align = lambda: rng.choice(sorted(NAMED))
    if kind == "padding":
        if rng.random() < 0.5:
            return {"padding": rng.choice([0, 5, 16, -4])}
        return {"padding": {e: rng.choice([0, 0, 6, -3]) for e in ("top", "leading", "bottom", "trailing")}}
    if kind == "frame":
        f = {}
        if rng.random() < 0.7:
            f["width"] = rng.randint(0, 120)
        if rng.random() < 0.7:
            f["height"] = rng.randint(0, 120)
        if not f:
            f["width"] = 40
        if rng.random() < 0.4:
            f["alignment"] = align()
        return {"frame": f}
    if kind == "flex":
        f = {}
        for axis in ("Width", "Height"):
            if rng.random() < 0.6:
                choice = rng.random()
                if choice < 0.3:
                    f["max" + axis] = "infinity"
                elif choice < 0.5:
                    f["min" + axis] = rng.randint(0, 80)
                elif choice < 0.7:
                    f["min" + axis] = rng.randint(0, 40)
                    f["max" + axis] = rng.choice([rng.randint(40, 150), "infinity"])
                elif choice < 0.85:
                    f["ideal" + axis] = rng.randint(0, 100)
                else:
                    f["max" + axis] = rng.randint(0, 120)
        if not f:
            f["maxWidth"] = "infinity"
        if rng.random() < 0.4:
            f["alignment"] = align()
        return {"frame": f}
    if kind == "fixedSize":
        if rng.random() < 0.5:
            return {"fixedSize": True}
        return {"fixedSize": {"horizontal": rng.random() < 0.5, "vertical": rng.random() < 0.5}}
    if kind == "layoutPriority":
        return {"layoutPriority": rng.choice([-1, 1, 2])}
    if kind == "offset":
        return {"offset": {"x": rng.randint(-20, 20), "y": rng.randint(-20, 20)}}
    content = random_view(rng, min(depth - 1, 1))
    m = {"content": content}
    if rng.random() < 0.4:
        m["alignment"] = align()
    return {kind: m}


def random_scene(seed, index):
    rng = random.Random(f"{seed}:{index}")
    scene = {
        "version": 1,
        "size": {"width": rng.choice([200, 320, 390]), "height": rng.choice([200, 300, 480])},
        "scale": rng.choice([1, 2, 3]),
    }
    if rng.random() < 0.3:
        scene["safeAreaInsets"] = {"top": rng.choice([0, 20, 47]), "bottom": rng.choice([0, 34])}
    scene["body"] = random_view(rng, 4)
    return scene


# --- comparing ----------------------------------------------------------------

def snap(v, scale):
    return math.floor(v * scale + 0.5) / scale


def edges(frame):
    x, y, w, h = frame
    return (x, y, x + w, y + h)


def agrees(exact, actual, scale):
    """Whether the printed (snapped) frame is the exact one snapped; an edge
    within 1e-7 pt of a rounding tie may round either way (the two sums may
    differ in their last bits); a frame that is not finite prints null."""
    want = edges(exact)
    if any(a is None for a in actual.values()):
        return not all(math.isfinite(v) for v in want)
    got = edges((actual["x"], actual["y"], actual["width"], actual["height"]))
    for e, g in zip(want, got):
        if not math.isfinite(e):
            return False
        choices = {snap(e - 1e-7, scale), snap(e + 1e-7, scale)}
        if not any(abs(g - c) <= 1e-9 for c in choices):
            return False
    return True


def parse(stdout):
    # glass-gpu before issue 36 printed non-finite numbers as `inf` and `nan`,
    # which are not JSON: read them as null so that the rest can be compared.
    text = stdout
    for token in ("-inf", "inf", "nan"):
        text = text.replace(f": {token},", ": null,").replace(f": {token}}}", ": null}")
    return json.loads(text)


def check_one(binary, seed, index, keep, scene=None):
    scene = scene or random_scene(seed, index)
    folder = keep or tempfile.mkdtemp(prefix="layout-oracle-")
    path = os.path.join(folder, f"tree-{seed}-{index}.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    try:
        result = subprocess.run([binary, "layout", path, "--json"], capture_output=True, text=True, timeout=60)
    finally:
        if not keep:
            os.remove(path)
            os.rmdir(folder)
    if result.returncode != 0:
        return f"glass-gpu layout failed: {result.stderr.strip()}"
    try:
        views = parse(result.stdout)["views"]
    except ValueError as error:
        return f"not JSON ({error})"
    want = expected(scene)
    if len(views) != len(want):
        return f"{len(views)} views, the oracle has {len(want)}"
    for got, (kind, path_, depth, frame) in zip(views, want):
        if (got["kind"], got["path"], got["depth"]) != (kind, path_, depth):
            return f"view {got['path']} ({got['kind']}) where the oracle has {path_} ({kind})"
        if not agrees(frame, got["frame"], scene["scale"]):
            return (f"{path_} ({kind}): frame {got['frame']}, the oracle's "
                    f"{[round(v, 4) for v in frame]} at scale {scene['scale']}")
    return None


def smaller(view):
    """Trees with one piece of `view` taken out or replaced by a leaf."""
    for i in range(len(view.get("modifiers", []))):
        copy = json.loads(json.dumps(view))
        del copy["modifiers"][i]
        yield copy
    for i in range(len(view.get("children", []))):
        copy = json.loads(json.dumps(view))
        del copy["children"][i]
        yield copy
    if view["type"] in ("vstack", "hstack", "zstack"):
        yield {"type": "color", "color": "red", **({"modifiers": view["modifiers"]} if "modifiers" in view else {})}
    for i, child in enumerate(view.get("children", [])):
        for c in smaller(child):
            copy = json.loads(json.dumps(view))
            copy["children"][i] = c
            yield copy
    for i, m in enumerate(view.get("modifiers", [])):
        (name, value), = m.items()
        if name in ("overlay", "background"):
            for c in smaller(value["content"]):
                copy = json.loads(json.dumps(view))
                copy["modifiers"][i][name]["content"] = c
                yield copy


def reduce(binary, scene):
    while True:
        for body in smaller(scene["body"]):
            candidate = dict(scene, body=body)
            try:
                problem = check_one(binary, 0, 0, None, candidate)
            except ValueError:
                continue
            if problem is not None and "failed" not in problem:
                scene = candidate
                break
        else:
            return scene


def main(argv):
    if len(argv) >= 2 and argv[1] == "reduce":
        with open(argv[3]) as f:
            scene = reduce(argv[2], json.load(f))
        print(json.dumps(scene))
        print(check_one(argv[2], 0, 0, None, scene))
        return 0
    if len(argv) >= 2 and argv[1] == "scene":
        print(json.dumps(random_scene(int(argv[2]), int(argv[3])), indent=1))
        return 0
    if len(argv) >= 2 and argv[1] == "expect":
        with open(argv[2]) as f:
            for kind, path, depth, frame in expected(json.load(f)):
                print(f"{'  ' * depth}{kind} {path} {[round(v, 4) for v in frame]}")
        return 0
    if len(argv) < 5 or argv[1] != "check":
        print(__doc__, file=sys.stderr)
        return 2
    binary, seed, count = argv[2], int(argv[3]), int(argv[4])
    options = dict(zip(argv[5::2], argv[6::2]))
    jobs = int(options.get("--jobs", "4"))
    keep = options.get("--keep")
    limit = int(options.get("--limit", "10"))
    if keep:
        os.makedirs(keep, exist_ok=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        problems = list(pool.map(lambda i: check_one(binary, seed, i, keep), range(count)))
    failures = [{"tree": i, "scene": random_scene(seed, i), "problem": p}
                for i, p in enumerate(problems) if p is not None]
    print(json.dumps({"trees": count, "agree": count - len(failures), "failures": failures[:limit]}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
