/*
** The figures as inline SVG: the bit-contribution map, the error against
** K on a log scale, the pass structure, and a survey's windows and passes. Every mark that stands for a
** case carries a <title> (the browser's tooltip) naming it.
*/
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/params.h"

char *rep_svg_heat(const rep_heat *h)
{
    const int cw = 12, ch = 14, left = 250, top = 30;
    int w = left + h->cols * cw + 20, ht = top + h->rows * ch + 40;
    lad_buf b = {0};
    lad_buf_printf(&b, "<svg class=\"fig\" width=\"%d\" "
                   "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
                   "font-size=\"10\">\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
                   w, ht, w, ht, w, ht);
    for (int c = 0; c < h->cols; c += 5)
        lad_buf_printf(&b, "<text x=\"%d\" y=\"%d\">%d</text>\n", left + c * cw, top - 6,
                       h->col_j[c]);
    for (int r = 0; r < h->rows; r++) {
        lad_buf_printf(&b, "<text x=\"4\" y=\"%d\">", top + r * ch + 10);
        rep_buf_escape(&b, h->row_name[r]);
        lad_buf_puts(&b, "</text>\n");
        for (int c = 0; c < h->cols; c++) {
            int v = h->cell[r * h->cols + c];
            if (v < 0)
                continue;
            lad_buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                           "fill=\"%s\" stroke=\"#fff\"><title>",
                           left + c * cw, top + r * ch, cw, ch, v ? "#b2182b" : "#d1e5f0");
            rep_buf_escape(&b, h->tip[r * h->cols + c] ? h->tip[r * h->cols + c] : "");
            lad_buf_puts(&b, "</title></rect>\n");
        }
    }
    lad_buf_printf(&b, "<text x=\"%d\" y=\"%d\">bit offset j below the anchor (2^-j)</text>\n",
                   left, top + h->rows * ch + 16);
    lad_buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#b2182b\"/>"
                   "<text x=\"%d\" y=\"%d\">changes D</text><rect x=\"%d\" y=\"%d\" "
                   "width=\"10\" height=\"10\" fill=\"#d1e5f0\"/><text x=\"%d\" y=\"%d\">"
                   "changes nothing</text>\n",
                   left, top + h->rows * ch + 24, left + 14, top + h->rows * ch + 33,
                   left + 90, top + h->rows * ch + 24, left + 104, top + h->rows * ch + 33);
    lad_buf_puts(&b, "</svg>");
    return lad_buf_take(&b);
}

/* y of a relative error on the log axis lo..hi (decades). */
static double ly(double e, double lo, double hi, int top, int height)
{
    double l = e > 0 ? log10(e) : lo;
    if (l < lo)
        l = lo;
    return top + height - (l - lo) / (hi - lo) * height;
}

/* Opens the SVG of an error plot: a w x h pixel canvas, the plot's frame
** (pw x ph at left, top) and a grid line with its label at every decade
** 10^lo .. 10^hi of the log axis. */
static void log_frame(lad_buf *b, int w, int h, int left, int top, int pw, int ph, double lo,
                      double hi)
{
    lad_buf_printf(b, "<svg class=\"fig\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                   "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"%d\" "
                   "height=\"%d\" fill=\"#fff\"/>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" "
                   "height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
                   w, h, w, h, w, h, left, top, pw, ph);
    for (int d = (int)lo; d <= (int)hi; d++) {
        double y = ly(pow(10, d), lo, hi, top, ph);
        lad_buf_printf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                       "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n",
                       left, left + pw, y, y, left - 4, y + 4, d);
    }
}

char *rep_svg_err(const rep_err *e)
{
    const int left = 70, top = 20, pw = 640, ph = 320;
    double lo = 0, hi = -30;
    for (int k = 0; k < e->n; k++) {
        double b = (k + 1) * e->u;
        if (log10(b) > hi)
            hi = log10(b);
        if (e->maxe[k] > 0 && log10(e->maxe[k]) > hi)
            hi = log10(e->maxe[k]);
        if (e->meane[k] > 0 && log10(e->meane[k]) < lo)
            lo = log10(e->meane[k]);
    }
    if (log10(e->u) - 2 < lo)
        lo = log10(e->u) - 2;
    lo = floor(lo);
    hi = ceil(hi + 0.01);
    if (hi <= lo)
        hi = lo + 1;
    lad_buf b = {0};
    log_frame(&b, left + pw + 160, top + ph + 50, left, top, pw, ph, lo, hi);
    int n = e->n;
    double dx = n > 1 ? (double)pw / (n - 1) : 0;
    /* ticks at K = 1 and every step up to K itself (1, 4, 8, ... 32) */
    int step = n > 16 ? n / 8 : 1;
    for (int kk = 1; kk <= n; kk = kk == 1 && step > 1 ? step : kk + step)
        lad_buf_printf(&b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
                       left + (kk - 1) * dx, top + ph + 14, kk);
    lad_buf_printf(&b, "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" "
                   "transform=\"rotate(-90 14 %d)\">relative error |D - exact| / |exact|"
                   "</text>\n", top + ph / 2, top + ph / 2);
    lad_buf_printf(&b, "<text x=\"%d\" y=\"%d\">K (products)</text>\n", left + pw / 2,
                   top + ph + 32);
    static const char *const col[4] = {"#b2182b", "#2166ac", "#555", "#999"};
    static const char *const dash[4] = {"", "", "6,3", "2,3"};
    static const char *const name[4] = {"max rel. error", "mean rel. error", "K*u", "sqrt(K)*u"};
    for (int s = 0; s < 4; s++) {
        lad_buf_printf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s "
                       "points=\"", col[s], dash[s][0] ? " stroke-dasharray=\"" : "", dash[s],
                       dash[s][0] ? "\"" : "");
        for (int k = 0; k < n; k++) {
            double v = s == 0 ? e->maxe[k] : s == 1 ? e->meane[k]
                     : s == 2 ? (k + 1) * e->u : sqrt((double)(k + 1)) * e->u;
            lad_buf_printf(&b, "%.1f,%.1f ", left + k * dx, ly(v, lo, hi, top, ph));
        }
        lad_buf_puts(&b, "\"/>\n");
        /* the legend's swatch drawn as its curve is: solid, dashed, dotted */
        lad_buf_printf(&b, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
                       "stroke-width=\"2\"%s%s%s/><text x=\"%d\" y=\"%d\">%s</text>\n",
                       left + pw + 10, left + pw + 30, top + 10 + 16 * s, top + 10 + 16 * s,
                       col[s], dash[s][0] ? " stroke-dasharray=\"" : "", dash[s],
                       dash[s][0] ? "\"" : "", left + pw + 34, top + 14 + 16 * s, name[s]);
    }
    for (int k = 0; k < n; k++)
        lad_buf_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>K=%d: "
                       "max %.3e, mean %.3e over %d cases</title></circle>\n",
                       left + k * dx, ly(e->maxe[k], lo, hi, top, ph), col[0], k + 1,
                       e->maxe[k], e->meane[k], e->ncases[k]);
    lad_buf_puts(&b, "</svg>");
    return lad_buf_take(&b);
}

/* ---- the pass structure ------------------------------------------------- */

typedef struct shape {
    int kp, L, npass;
} shape;

static shape shape_of(const lad_datapath *dp)
{
    shape s;
    s.kp = lad_datapath_kphys(dp);
    s.L = dp->pass > 0 && dp->pass < s.kp ? dp->pass : s.kp;
    s.npass = (s.kp + s.L - 1) / s.L;
    return s;
}

static int lane_at(const lad_datapath *dp, int i)
{
    return dp->norder ? dp->order[i] : i;
}

/* Where C enters, in words. */
static const char *c_entry(const lad_datapath *dp)
{
    if (dp->c_last)
        return "C is added after the last pass: one rounded addition into D (d_round)";
    if (dp->chain == LAD_SUM)
        return "every pass starts from +0; C and the pass results are added in order "
               "(acc_round into acc)";
    if (dp->window2)
        return "C enters the first pass at the second level: aligned window bits below the "
               "pass anchor (the larger of the products' anchor and C's exponent)";
    return dp->c_anchor ? "C enters the first pass as a term of the window (it takes part "
                          "in the anchor)"
                        : "C enters the first pass, added exactly to the window sum before "
                          "it is rounded";
}

char *rep_text_passes(const lad_datapath *dp)
{
    shape s = shape_of(dp);
    lad_buf b = {0};
    char a[64], d[64];
    lad_buf_printf(&b, "%d products, %d per pass, %d pass%s (%s)\n", s.kp, s.L, s.npass,
                   s.npass == 1 ? "" : "es", dp->chain == LAD_SUM ? "sum" : "chain");
    lad_buf_printf(&b, "%s\n", c_entry(dp));
    if (dp->group > 1)
        lad_buf_printf(&b, "lanes are summed exactly in groups of %d before the window\n",
                       dp->group);
    for (int p = 0; p < s.npass; p++) {
        lad_buf_printf(&b, "pass %d: lanes", p + 1);
        for (int i = p * s.L; i < (p + 1) * s.L && i < s.kp; i++)
            lad_buf_printf(&b, " %d", lane_at(dp, i));
        if (dp->window2)
            lad_buf_printf(&b, "; products aligned %d bits below their anchor (%s)%s, summed "
                           "exactly; that sum aligned %d bits below the pass anchor and the "
                           "addend %d (%s)%s", dp->window, lad_round_name(dp->align_round),
                           dp->even_odd ? " as two sums, even and odd lanes" : "",
                           dp->window2, dp->window, lad_round_name(dp->align2_round),
                           dp->c2_drop ? ", an addend far below dropped" : "");
        else
            lad_buf_printf(&b, "; terms aligned %d bits below the anchor (%s)", dp->window,
                           lad_round_name(dp->align_round));
        if (dp->window2 && dp->norm2)
            lad_buf_printf(&b, "; the exact sum cut to %d fraction bits (%s)", dp->norm2,
                           lad_round_name(dp->align2_round));
        if (p + 1 < s.npass || dp->d_via_acc || dp->c_last)
            lad_buf_printf(&b, "; result rounded into %s (%s)", dp->acc.name,
                           lad_round_name(dp->acc_round));
        lad_buf_puts(&b, "\n");
    }
    snprintf(a, sizeof a, "%s", dp->d.name);
    snprintf(d, sizeof d, "%s", lad_round_name(dp->d_round));
    lad_buf_printf(&b, "D: rounded into %s (%s)%s\n", a, d,
                   dp->d_via_acc ? ", after a rounding into acc (a double rounding)" : "");
    return lad_buf_take(&b);
}

char *rep_svg_passes(const lad_datapath *dp)
{
    shape s = shape_of(dp);
    const int sq = 16, per_row = 16, gap = 60, left = 110;
    int lrows = (s.L + per_row - 1) / per_row;
    int bw = (s.L < per_row ? s.L : per_row) * sq + 16;
    int bh = lrows * sq + 40;
    int perline = s.npass < 4 ? s.npass : 4, lines = (s.npass + perline - 1) / perline;
    int w = left + perline * (bw + gap) + 160, h = 60 + lines * (bh + 70) + 40;
    lad_buf b = {0};
    lad_buf_printf(&b, "<svg class=\"fig\" width=\"%d\" "
                   "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
                   "font-size=\"10\">\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n"
                   "<defs><marker id=\"arr\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" "
                   "refY=\"4\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#333\"/>"
                   "</marker></defs>\n",
                   w, h, w, h, w, h);
    lad_buf_printf(&b, "<text x=\"10\" y=\"16\" font-size=\"12\">%d products, %d per pass, %d "
                   "pass%s, %s; window %d bits below the anchor, align %s</text>\n",
                   s.kp, s.L, s.npass, s.npass == 1 ? "" : "es",
                   dp->chain == LAD_SUM ? "sum" : "chain", dp->window,
                   lad_round_name(dp->align_round));
    if (dp->window2) {
        /* the second level of a two-level window (CDNA3) */
        lad_buf_printf(&b, "<text x=\"10\" y=\"32\" font-size=\"11\">second level: window2 %d "
                       "bits below the pass anchor, align2 %s", dp->window2,
                       lad_round_name(dp->align2_round));
        if (dp->norm2)
            lad_buf_printf(&b, ", norm2: the exact sum cut to %d fraction bits", dp->norm2);
        lad_buf_printf(&b, "%s%s</text>\n", dp->even_odd ? ", even and odd lanes apart" : "",
                       dp->c2_drop ? ", a far addend dropped" : "");
    }
    /* C */
    int cy = 60 + bh / 2;
    int cx = dp->c_last || dp->chain == LAD_SUM ? -1 : 10;
    if (cx >= 0)
        lad_buf_printf(&b, "<rect x=\"10\" y=\"%d\" width=\"70\" height=\"28\" fill=\"#fee8c8\" "
                       "stroke=\"#e34a33\"/><text x=\"16\" y=\"%d\">C (%s)</text><text x=\"16\" "
                       "y=\"%d\" font-size=\"8\">%s</text><line x1=\"80\" y1=\"%d\" x2=\"%d\" "
                       "y2=\"%d\" stroke=\"#333\" marker-end=\"url(#arr)\"/>\n",
                       cy - 14, cy, dp->c.name, cy + 10,
                       dp->c_anchor ? "in the window" : "added exactly", cy, left - 2, cy);
    int lastx = 0, lasty = 0;
    for (int p = 0; p < s.npass; p++) {
        int x = left + (p % perline) * (bw + gap), y = 50 + (p / perline) * (bh + 70);
        lad_buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f7f7f7\" "
                       "stroke=\"#333\"/><text x=\"%d\" y=\"%d\">pass %d</text>\n",
                       x, y, bw, bh, x + 4, y + 12, p + 1);
        for (int i = p * s.L; i < (p + 1) * s.L && i < s.kp; i++) {
            int q = i - p * s.L, lx = x + 8 + (q % per_row) * sq, ly2 = y + 18 + (q / per_row) * sq;
            int g = dp->group > 1 ? (q / dp->group) % 2 : 0;
            lad_buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                           "fill=\"%s\" stroke=\"#fff\"><title>position %d: physical lane %d"
                           "%s</title></rect><text x=\"%d\" y=\"%d\" font-size=\"7\" "
                           "fill=\"#fff\">%d</text>\n",
                           lx, ly2, sq, sq, g ? "#4393c3" : "#2166ac", i, lane_at(dp, i),
                           dp->group > 1 ? ", summed exactly with its group" : "", lx + 2,
                           ly2 + 11, lane_at(dp, i));
        }
        int inner = p + 1 < s.npass || dp->d_via_acc || dp->c_last;
        lad_buf_printf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"9\">%s %s</text>\n", x,
                       y + bh + 12, inner ? "into" : "into D", inner ? dp->acc.name : dp->d.name);
        lad_buf_printf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"9\">%s</text>\n", x, y + bh + 24,
                       lad_round_name(inner ? dp->acc_round : dp->d_round));
        if (p + 1 < s.npass && (p + 1) % perline)
            lad_buf_printf(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" "
                           "marker-end=\"url(#arr)\"/><text x=\"%d\" y=\"%d\" font-size=\"8\">%s"
                           "</text>\n",
                           x + bw, y + bh / 2, x + bw + gap - 2, y + bh / 2, x + bw + 4,
                           y + bh / 2 - 4, dp->chain == LAD_SUM ? "sum" : "addend");
        lastx = x + bw;
        lasty = y + bh / 2;
    }
    /* the end: C added last, and D */
    int ex = lastx + 20;
    if (dp->c_last || dp->chain == LAD_SUM)
        lad_buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"60\" height=\"24\" fill=\"#fee8c8\" "
                       "stroke=\"#e34a33\"/><text x=\"%d\" y=\"%d\">+ C (%s)</text>\n",
                       ex, lasty - 44, ex + 4, lasty - 28, dp->c.name);
    lad_buf_printf(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" "
                   "marker-end=\"url(#arr)\"/><rect x=\"%d\" y=\"%d\" width=\"80\" height=\"28\" "
                   "fill=\"#e5f5e0\" stroke=\"#31a354\"/><text x=\"%d\" y=\"%d\">D (%s)</text>"
                   "<text x=\"%d\" y=\"%d\" font-size=\"8\">%s%s</text>\n",
                   lastx, lasty, ex + 58, lasty, ex + 60, lasty - 14, ex + 64, lasty,
                   dp->d.name, ex + 64, lasty + 10, lad_round_name(dp->d_round),
                   dp->d_via_acc ? " via acc" : "");
    lad_buf_puts(&b, "</svg>");
    return lad_buf_take(&b);
}

char *rep_svg_bars(const rep_bars *bb)
{
    /* two bar groups side by side: the window (0..max F) and the products
    ** fused per pass (0..max L), one row per datapath */
    const int left = 290, gw = 420, gap = 60, top = 34, rh = 14;
    int maxw = 1, maxp = 1;
    for (int i = 0; i < bb->n; i++) {
        if (bb->window[i] > maxw)
            maxw = bb->window[i];
        if (bb->pass[i] > maxp)
            maxp = bb->pass[i];
    }
    int w = left + 2 * gw + gap + 40, h = top + bb->n * rh + 30;
    lad_buf b = {0};
    lad_buf_printf(&b, "<svg class=\"fig\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                   "font-family=\"sans-serif\" font-size=\"10\">\n<rect width=\"%d\" "
                   "height=\"%d\" fill=\"#fff\"/>\n", w, h, w, h, w, h);
    lad_buf_printf(&b, "<text x=\"%d\" y=\"14\" font-weight=\"bold\">window F (fraction bits "
                   "below the anchor; 0..%d)</text>\n<text x=\"%d\" y=\"14\" "
                   "font-weight=\"bold\">fused products per pass L (0..%d)</text>\n",
                   left, maxw, left + gw + gap, maxp);
    for (int i = 0; i < bb->n; i++) {
        int y = top + i * rh;
        lad_buf_printf(&b, "<text x=\"4\" y=\"%d\">", y + 10);
        rep_buf_escape(&b, bb->name[i]);
        lad_buf_puts(&b, "</text>\n");
        int wv = bb->window[i] < 0 ? maxw : bb->window[i];
        int bw = wv * gw / maxw, bp = bb->pass[i] * gw / maxp;
        lad_buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#4477aa\">"
                       "<title>", left, y + 1, bw > 1 ? bw : 1, rh - 3);
        rep_buf_escape(&b, bb->name[i]);
        if (bb->window[i] < 0)
            lad_buf_puts(&b, ": exact</title></rect>\n");
        else
            lad_buf_printf(&b, ": F = %d</title></rect>\n", bb->window[i]);
        if (bb->window[i] < 0)
            lad_buf_printf(&b, "<text x=\"%d\" y=\"%d\" fill=\"#444\">exact</text>\n",
                           left + bw + 4, y + 10);
        lad_buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ee7733\">"
                       "<title>", left + gw + gap, y + 1, bp > 1 ? bp : 1, rh - 3);
        rep_buf_escape(&b, bb->name[i]);
        lad_buf_printf(&b, ": L = %d</title></rect>\n", bb->pass[i]);
    }
    lad_buf_puts(&b, "</svg>");
    return lad_buf_take(&b);
}

char *rep_svg_err2(const rep_err *ea, const rep_err *eb, const int *ks, const char *na,
                   const char *nb)
{
    const int left = 70, top = 20, pw = 640, ph = 300;
    const rep_err *es[2] = {ea, eb};
    double lo = 0, hi = -30;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < es[s]->n; k++)
            if (es[s]->maxe[k] > 0) {
                double l = log10(es[s]->maxe[k]);
                lo = l < lo ? l : lo;
                hi = l > hi ? l : hi;
            }
    lo = floor(lo - 0.5);
    hi = ceil(hi + 0.01);
    if (hi <= lo)
        hi = lo + 1;
    int n = ea->n;
    double dx = n > 1 ? (double)pw / (n - 1) : 0;
    lad_buf b = {0};
    log_frame(&b, left + pw + 170, top + ph + 50, left, top, pw, ph, lo, hi);
    for (int k = 0; k < n; k++)
        lad_buf_printf(&b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
                       left + k * dx, top + ph + 14, ks[k]);
    lad_buf_printf(&b, "<text x=\"%d\" y=\"%d\">total K (products per dot product)</text>\n"
                   "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
                   "%d)\">largest relative error</text>\n",
                   left + pw / 2 - 80, top + ph + 32, top + ph / 2, top + ph / 2);
    static const char *const col[2] = {"#b2182b", "#2166ac"};
    const char *name[2] = {na, nb};
    for (int s = 0; s < 2; s++) {
        lad_buf_printf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                       col[s]);
        for (int k = 0; k < n; k++)
            if (es[s]->ncases[k])
                lad_buf_printf(&b, "%.1f,%.1f ", left + k * dx,
                               ly(es[s]->maxe[k], lo, hi, top, ph));
        lad_buf_puts(&b, "\"/>\n");
        for (int k = 0; k < n; k++)
            if (es[s]->ncases[k])
                lad_buf_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>"
                               "%s, K=%d: max %.3e, mean %.3e over %d</title></circle>\n",
                               left + k * dx, ly(es[s]->maxe[k], lo, hi, top, ph), col[s],
                               name[s], ks[k], es[s]->maxe[k], es[s]->meane[k],
                               es[s]->ncases[k]);
        lad_buf_printf(&b, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
                       "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">", left + pw + 10,
                       left + pw + 30, top + 10 + 16 * s, top + 10 + 16 * s, col[s],
                       left + pw + 34, top + 14 + 16 * s);
        rep_buf_escape(&b, name[s]);
        lad_buf_puts(&b, "</text>\n");
    }
    lad_buf_puts(&b, "</svg>");
    return lad_buf_take(&b);
}
