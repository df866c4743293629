import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import type { Font } from 'fontkit';
import { microToUsdc } from '@harvest/shared/money';
import { describeMovement, statementTexts } from '@harvest/shared/statement-texts';
import { translator } from '../../lib/i18n.ts';
import { FONTS_DIR } from '../../lib/paths.ts';
import type { StatementData } from './statements.service.ts';

type Doc = PDFKit.PDFDocument;

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = { top: 48, bottom: 60, left: 40, right: 40 };
const WIDTH = A4.width - MARGIN.left - MARGIN.right;
const INK = '#1e1b2e';
const MUTED = '#5b5670';
const RULE = '#cfcbe0';
const PAD = 3;

/** The movements table, from the start side: widths add up to the page's text width; amounts at the end side. */
const COLUMNS = [
  { key: 'date', width: 72, align: 'start' },
  { key: 'description', width: WIDTH - 72 - 132 - 72 - 84, align: 'start' },
  { key: 'reference', width: 132, align: 'start' },
  { key: 'amount', width: 72, align: 'end' },
  { key: 'balance', width: 84, align: 'end' },
] as const;
type Cells = Record<(typeof COLUMNS)[number]['key'], string>;

/**
 * The faces a statement is written in (assets/fonts): DejaVu Sans Condensed draws Latin, Turkish, Cyrillic and Arabic;
 * Noto Sans SC draws Chinese, Japanese kana and kanji, and the Latin letters and digits beside them; Noto Sans KR
 * draws Korean (regular only: a Korean name is the only Korean on a statement). Each letter takes the first face of
 * the reader's language that has it; a letter no face has (an emoji) is drawn as "?", not as an empty box.
 */
const FACES = {
  latin: { regular: 'DejaVuSansCondensed.ttf', bold: 'DejaVuSansCondensed-Bold.ttf' },
  cjk: { regular: 'NotoSansSC-Regular.ttf', bold: 'NotoSansSC-Bold.ttf' },
  ko: { regular: 'NotoSansKR-Regular.ttf', bold: 'NotoSansKR-Regular.ttf' },
} as const;
type Face = keyof typeof FACES;
/** References (record ids and transaction hashes) are ASCII: the standard Courier draws them. */
const MONO = 'Courier';

/** Which letters each face has, read once from the font files (pdfkit reads them again for each document). */
let coverage: Promise<Record<Face, Font>> | undefined;
function loadCoverage(): Promise<Record<Face, Font>> {
  coverage ??= import('fontkit').then(({ openSync }) => {
    const open = (file: string) => openSync(path.join(FONTS_DIR, file)) as Font;
    return Object.fromEntries(Object.entries(FACES).map(([face, files]) => [face, open(files.regular)])) as Record<
      Face,
      Font
    >;
  });
  return coverage;
}

/**
 * Right to left: pdfkit has no bidirectional layout (fontkit shapes an Arabic word and turns it, but pdfkit puts
 * words left to right). So a line is cut into pieces, each drawn on its own, in the order they are seen from the
 * left: the words of a right-to-left run turned around (an Arabic name in a Russian line), and on an Arabic page
 * the runs turned around too, each left-to-right run (a Latin name, "(Tier 3)") kept whole.
 */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;
function seenFromLeft(line: string, rtlPage: boolean): string[] {
  const words = line.split(' ');
  const kind = words.map((w) =>
    RTL_LETTER.test(w) ? 'rtl' : LETTER.test(w) ? 'ltr' : DIGIT.test(w) ? 'number' : 'neutral',
  );
  const runs: { ltr: boolean; words: string[] }[] = [];
  let strong = rtlPage ? 'rtl' : 'ltr';
  words.forEach((word, i) => {
    // A number reads with the letters before it (after Arabic ones it stands to their left); a word without
    // letters between two words of one direction takes theirs; else the page's.
    const k = kind[i];
    const next = kind.slice(i + 1).find((n) => n === 'rtl' || n === 'ltr') ?? (rtlPage ? 'rtl' : 'ltr');
    const ltr =
      k === 'ltr' || k === 'rtl'
        ? k === 'ltr'
        : k === 'number'
          ? strong === 'ltr'
          : strong === next
            ? next === 'ltr'
            : !rtlPage;
    if (k === 'ltr' || k === 'rtl') strong = k;
    const last = runs.at(-1);
    if (last && last.ltr === ltr) last.words.push(word);
    else runs.push({ ltr, words: [word] });
  });
  const pieces = runs.map((r) => (r.ltr ? [r.words.join(' ')] : [...r.words].reverse()));
  return (rtlPage ? pieces.reverse() : pieces).flat();
}
/** Marks that order text for a reader that lays it out itself; the pieces above are already in order. */
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

type Style = { size: number; bold?: boolean; mono?: boolean; color?: string };
type Box = Style & { align?: 'start' | 'end'; oneLine?: boolean };

/**
 * Statements rendered at once in this process; the others wait their turn. Each render gives the event loop back
 * after every row, but more of them at once would only slow every other request down.
 */
const RENDERS_AT_ONCE = 2;
let rendering = 0;
const waiting: (() => void)[] = [];

/**
 * The statement as a PDF a person would file (pdfkit, on the server; docs/decisions/0073), in the reader's language:
 * the platform's name, the investor's name and e-mail, the period and time zone, the opening and closing balances
 * with the money in and out, the movements (their header repeated on each page), and "Page n of N" on every page.
 * Arabic is laid out from the right. Amounts show every micro-USDC, balances at least the spec's 4 decimals. pdfkit
 * and the fonts are loaded on the first statement only.
 */
export async function statementPdf(s: StatementData): Promise<Buffer> {
  if (rendering < RENDERS_AT_ONCE) rendering++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await render(s);
  } finally {
    // The turn passes straight to the first in line, so that a newcomer cannot overtake it.
    const next = waiting.shift();
    if (next) next();
    else rendering--;
  }
}

async function render(s: StatementData): Promise<Buffer> {
  const [{ default: PDFDocument }, fonts] = await Promise.all([import('pdfkit'), loadCoverage()]);
  const t = statementTexts(translator(s.locale));
  const rtl = s.locale === 'ar';
  // Chinese first for a Chinese reader, so that the digits and Latin letters beside Chinese match it.
  const primary: Face = s.locale === 'zh-CN' ? 'cjk' : 'latin';
  const faces: Face[] = primary === 'cjk' ? ['cjk', 'latin', 'ko'] : ['latin', 'cjk', 'ko'];
  const money = (micro: bigint, decimals: number) => t.amount(microToUsdc(micro), decimals);
  const doc: Doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    lang: s.locale,
    info: {
      Title: `${t.platform}: ${t.title} ${t.periodRange(s.from, s.to)}`,
      Author: t.platform,
      Subject: s.investor.name,
      CreationDate: s.generatedAt,
    },
  });
  for (const face of Object.keys(FACES) as Face[]) {
    doc.registerFont(`${face}-regular`, path.join(FONTS_DIR, FACES[face].regular));
    doc.registerFont(`${face}-bold`, path.join(FONTS_DIR, FACES[face].bold));
  }
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  type Run = { text: string; font: string };
  /** The text cut where the face changes: each letter in the first face of the reader's language that has it. */
  const runsOf = (text: string, bold: boolean): Run[] => {
    const runs: { face: Face; text: string }[] = [];
    for (const c of text) {
      const last = runs.at(-1);
      const face =
        c === ' ' ? (last?.face ?? primary) : faces.find((f) => fonts[f].hasGlyphForCodePoint(c.codePointAt(0) ?? 0));
      const drawn = face ? c : '?';
      if (last && last.face === (face ?? primary)) last.text += drawn;
      else runs.push({ face: face ?? primary, text: drawn });
    }
    return runs.map((r) => ({ text: r.text, font: `${r.face}-${bold ? 'bold' : 'regular'}` }));
  };
  const widthOf = (runs: Run[]) => runs.reduce((sum, r) => sum + doc.font(r.font).widthOfString(r.text), 0);
  const lineHeightOf = (runs: Run[]) => Math.max(...runs.map((r) => doc.font(r.font).currentLineHeight(true)));
  /**
   * The lines of a text that fit `width`, in reading order, measured run by run (pdfkit lays out one font at a
   * time). A word wider than the box (a wallet address) is cut where it reaches the edge.
   */
  const lines = (text: string, width: number, bold: boolean): string[] => {
    const measure = (part: string) => widthOf(runsOf(part, bold));
    const out: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const longer = line ? `${line} ${word}` : word;
      if (line && measure(longer) > width) {
        out.push(line);
        line = word;
      } else line = longer;
      while (measure(line) > width) {
        const chars = [...line];
        let cut = 0;
        for (let w = 0; cut < chars.length - 1 && (w += measure(chars[cut]!)) <= width;) cut++;
        out.push(chars.slice(0, Math.max(cut, 1)).join(''));
        line = chars.slice(Math.max(cut, 1)).join('');
      }
    }
    return [...out, line];
  };
  /** pdfkit lays the text out itself (one face, left to right), or it is laid out here. */
  const simple = (text: string, runs: Run[]) => runs.length <= 1 && !RTL_LETTER.test(text);

  /**
   * `text` in a box `width` wide at `x` from the start side (the right in Arabic), measured once: its height, and
   * how to draw it at `y` (a table row is measured before it knows on which page it goes).
   */
  const layout = (text: string, x: number, width: number, box: Box): { height: number; draw: (y: number) => void } => {
    doc.fontSize(box.size);
    const color = box.color ?? INK;
    const left = rtl ? A4.width - x - width : x;
    const align: 'left' | 'right' = (box.align === 'end') !== rtl ? 'right' : 'left';
    const clean = box.mono ? text : text.replace(BIDI_MARKS, '');
    const runs = box.mono ? [{ text, font: MONO }] : runsOf(clean, !!box.bold);
    if (simple(clean, runs)) {
      const run = runs[0] ?? { text: '', font: `${primary}-regular` };
      doc.font(run.font);
      const options = box.oneLine ? { width, align, lineBreak: false, ellipsis: true } : { width, align };
      const height = box.oneLine ? doc.currentLineHeight(true) : doc.heightOfString(run.text, { width });
      return {
        height,
        draw: (y) => void doc.fontSize(box.size).fillColor(color).font(run.font).text(run.text, left, y, options),
      };
    }
    const bold = !!box.bold;
    const ellipsis = box.oneLine ? widthOf(runsOf(' …', bold)) : 0;
    let all = lines(clean, width - ellipsis, bold);
    if (box.oneLine && all.length > 1) all = [`${all[0]} …`];
    const lh = lineHeightOf(runs);
    const space = widthOf(runsOf(' ', bold));
    // Each line's pieces in the order they are seen from the left, each piece run by run, with where it starts.
    const placed = all.flatMap((line, i) => {
      const pieces = seenFromLeft(line, rtl).map((piece) =>
        runsOf(piece, bold).map((r) => ({ ...r, width: widthOf([r]) })),
      );
      const used = pieces.flat().reduce((sum, r) => sum + r.width, space * (pieces.length - 1));
      let at = align === 'right' ? left + width - used : left;
      return pieces.flatMap((piece) => {
        const out = piece.map((r) => {
          const run = { ...r, x: at, dy: i * lh };
          at += r.width;
          return run;
        });
        at += space;
        return out;
      });
    });
    return {
      height: all.length * lh,
      draw: (y) => {
        doc.fontSize(box.size).fillColor(color);
        for (const r of placed) doc.font(r.font).text(r.text, r.x, y + r.dy, { lineBreak: false });
      },
    };
  };
  /** Draws `text` in a box (see layout) at `y`; returns its height. */
  const put = (text: string, x: number, y: number, width: number, box: Box): number => {
    const laid = layout(text, x, width, box);
    laid.draw(y);
    return laid.height;
  };

  // Heading: the platform, the document, and whose it is.
  let y = MARGIN.top;
  y += put(t.platform, MARGIN.left, y, WIDTH, { size: 18, bold: true });
  y += put(t.title, MARGIN.left, y, WIDTH, { size: 12, color: MUTED }) + 10;
  const facts: [string, string][] = [
    [t.investor, s.investor.name],
    [t.email, s.investor.email],
    [t.period, t.periodRange(s.from, s.to)],
    [t.timeZone, s.timeZone],
    [t.generated, `${s.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`],
  ];
  for (const [label, value] of facts) {
    const labelHeight = put(label, MARGIN.left, y, 90, { size: 9, color: MUTED });
    y += Math.max(labelHeight, put(value, MARGIN.left + 95, y, WIDTH - 95, { size: 9, bold: true })) + 2;
  }

  // The figures: opening + in - out = closing.
  y += 8;
  const boxY = y;
  const figures: [string, string][] = [
    [t.openingBalance, money(s.opening, 4)],
    [t.moneyIn, money(s.moneyIn, 2)],
    [t.moneyOut, money(-s.moneyOut, 2)],
    [t.closingBalance, money(s.closing, 4)],
  ];
  const cell = WIDTH / figures.length;
  figures.forEach(([label, value], i) => {
    const x = MARGIN.left + i * cell;
    put(`${label} (USDC)`, x + 6, boxY + 6, cell - 12, { size: 8, color: MUTED, align: 'end' });
    put(value, x + 6, boxY + 18, cell - 12, { size: 11, bold: true, align: 'end' });
  });
  doc.roundedRect(MARGIN.left, boxY, WIDTH, 38, 4).lineWidth(0.7).strokeColor(RULE).stroke();
  y = boxY + 46;
  y += put(t.scope, MARGIN.left, y, WIDTH, { size: 7.5, color: MUTED }) + 12;

  // The movements.
  const header: Cells = {
    date: t.columns.date,
    description: t.columns.description,
    reference: t.columns.reference,
    amount: t.columns.amount,
    balance: t.columns.balance,
  };
  /** 7.5 pt, bold for the header and the balance lines; references in 5.8 pt Courier, where a record id (36
   * characters) fits one line and a transaction hash (66) two. */
  const cellStyle = (key: keyof Cells, bold: boolean): Style =>
    bold ? { size: 7.5, bold } : key === 'reference' ? { size: 5.8, mono: true } : { size: 7.5 };
  const drawRow = (cells: Cells, o: { bold?: boolean; fill?: string } = {}) => {
    const bold = o.bold ?? false;
    let x = MARGIN.left;
    const laid = COLUMNS.map((c) => {
      const cell = layout(cells[c.key], x + PAD, c.width - 2 * PAD, { ...cellStyle(c.key, bold), align: c.align });
      x += c.width;
      return cell;
    });
    const h = Math.max(...laid.map((c) => c.height)) + 2 * PAD;
    if (y + h > A4.height - MARGIN.bottom) {
      doc.addPage();
      y = MARGIN.top;
      drawRow(header, { bold: true, fill: '#efedf7' });
    }
    if (o.fill) doc.rect(MARGIN.left, y, WIDTH, h).fill(o.fill);
    for (const cell of laid) cell.draw(y + PAD);
    doc
      .moveTo(MARGIN.left, y + h)
      .lineTo(MARGIN.left + WIDTH, y + h)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    y += h;
  };
  drawRow(header, { bold: true, fill: '#efedf7' });
  drawRow(
    { date: s.from, description: t.openingBalance, reference: '', amount: '', balance: money(s.opening, 4) },
    { bold: true },
  );
  for (const l of s.lines) {
    // pdfkit lays out synchronously: a year of movements takes seconds, so other requests get a turn after each row.
    await setImmediate();
    drawRow({
      date: l.localAt,
      description: describeMovement(t, l.detail),
      reference: l.reference,
      amount: money(l.amount, 2),
      balance: money(l.balance, 4),
    });
  }
  if (s.lines.length === 0) drawRow({ date: '', description: t.noMovements, reference: '', amount: '', balance: '' });
  drawRow(
    { date: s.to, description: t.closingBalance, reference: '', amount: '', balance: money(s.closing, 4) },
    { bold: true },
  );

  // "Page n of N" on every page, below the bottom margin (which pdfkit would otherwise answer with a new page).
  const pages = doc.bufferedPageRange();
  for (let i = 0; i < pages.count; i++) {
    doc.switchToPage(pages.start + i);
    doc.page.margins.bottom = 0;
    const footY = A4.height - MARGIN.bottom + 22;
    doc
      .moveTo(MARGIN.left, footY - 6)
      .lineTo(MARGIN.left + WIDTH, footY - 6)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    const footer = { size: 8, color: MUTED, oneLine: true };
    put(`${t.platform} · ${t.title} · ${s.investor.name}`, MARGIN.left, footY, WIDTH - 90, footer);
    put(t.page(i + 1, pages.count), MARGIN.left + WIDTH - 90, footY, 90, { ...footer, align: 'end' });
    doc.page.margins.bottom = MARGIN.bottom;
  }
  doc.end();
  return done;
}
