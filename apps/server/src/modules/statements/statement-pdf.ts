import { microToUsdc } from '@harvest/shared/money';
import { describeMovement, statementTexts } from '@harvest/shared/statement-texts';
import { translator } from '../../lib/i18n.ts';
import type { StatementData } from './statements.service.ts';

type Doc = PDFKit.PDFDocument;

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = { top: 48, bottom: 60, left: 40, right: 40 };
const WIDTH = A4.width - MARGIN.left - MARGIN.right;
const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold', mono: 'Courier' };
const INK = '#1e1b2e';
const MUTED = '#5b5670';
const RULE = '#cfcbe0';
const PAD = 3;

/** The movements table: widths add up to the page's text width; amounts right-aligned. */
const COLUMNS = [
  { key: 'date', width: 72, align: 'left' },
  { key: 'description', width: WIDTH - 72 - 132 - 72 - 84, align: 'left' },
  { key: 'reference', width: 132, align: 'left' },
  { key: 'amount', width: 72, align: 'right' },
  { key: 'balance', width: 84, align: 'right' },
] as const;
type Cells = Record<(typeof COLUMNS)[number]['key'], string>;

/**
 * The standard PDF fonts draw the WinAnsi characters only (Latin-1 and a few more); another character (a Cyrillic
 * or Chinese name) would come out as unrelated Latin letters, so it is shown as "?" instead. Embedding a Unicode
 * font costs seconds per thousand lines with pdfkit (docs/decisions/0073): the language work decides the fonts.
 */
const NOT_WIN_ANSI = /[^\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu;
const drawable = (text: string) => text.replace(NOT_WIN_ANSI, '?');
const PDF_LOCALES = new Set(['en', 'es', 'pt-BR']);

/**
 * The statement as a PDF a person would file (pdfkit, on the server; docs/decisions/0073): the platform's name,
 * the investor's name and e-mail, the period and time zone, the opening and closing balances with the money in
 * and out, the movements (their header repeated on each page), and "Page n of N" on every page. Amounts show
 * every micro-USDC, balances at least the spec's 4 decimals. pdfkit is loaded on the first statement only.
 */
export async function statementPdf(s: StatementData): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  // The standard fonts draw Spanish and Portuguese; another language's letters would be "?": English instead.
  const locale = PDF_LOCALES.has(s.locale) ? s.locale : 'en';
  const t = statementTexts(translator(locale));
  const money = (micro: bigint, decimals: number) => t.amount(microToUsdc(micro), decimals);
  const doc: Doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    lang: locale,
    info: {
      Title: `${t.platform}: ${t.title} ${t.periodRange(s.from, s.to)}`,
      Author: t.platform,
      Subject: s.investor.name,
      CreationDate: s.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const bottom = () => A4.height - MARGIN.bottom;

  // Heading: the platform, the document, and whose it is.
  doc.fillColor(INK).font(FONT.bold).fontSize(18).text(t.platform, MARGIN.left, MARGIN.top);
  doc.font(FONT.regular).fontSize(12).fillColor(MUTED).text(t.title);
  doc.moveDown(0.8);
  const facts: [string, string][] = [
    [t.investor, drawable(s.investor.name)],
    [t.email, drawable(s.investor.email)],
    [t.period, t.periodRange(s.from, s.to)],
    [t.timeZone, s.timeZone],
    [t.generated, `${s.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font(FONT.regular).fontSize(9).fillColor(MUTED).text(label, MARGIN.left, y, { width: 90 });
    doc
      .font(FONT.bold)
      .fillColor(INK)
      .text(value, MARGIN.left + 95, y, { width: WIDTH - 95 });
    doc.moveDown(0.2);
  }

  // The figures: opening + in - out = closing.
  doc.moveDown(0.6);
  const boxY = doc.y;
  const figures: [string, string][] = [
    [t.openingBalance, money(s.opening, 4)],
    [t.moneyIn, money(s.moneyIn, 2)],
    [t.moneyOut, money(-s.moneyOut, 2)],
    [t.closingBalance, money(s.closing, 4)],
  ];
  const cell = WIDTH / figures.length;
  figures.forEach(([label, value], i) => {
    const x = MARGIN.left + i * cell;
    doc
      .font(FONT.regular)
      .fontSize(8)
      .fillColor(MUTED)
      .text(`${label} (USDC)`, x + 6, boxY + 6, {
        width: cell - 12,
        align: 'right',
      });
    doc
      .font(FONT.bold)
      .fontSize(11)
      .fillColor(INK)
      .text(value, x + 6, boxY + 18, { width: cell - 12, align: 'right' });
  });
  doc.roundedRect(MARGIN.left, boxY, WIDTH, 38, 4).lineWidth(0.7).strokeColor(RULE).stroke();
  doc
    .font(FONT.regular)
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(t.scope, MARGIN.left, boxY + 46, { width: WIDTH });
  doc.moveDown(1);

  // The movements.
  const header: Cells = {
    date: t.columns.date,
    description: t.columns.description,
    reference: t.columns.reference,
    amount: t.columns.amount,
    balance: t.columns.balance,
  };
  const heightOf = (cells: Cells, bold: boolean) =>
    Math.max(
      ...COLUMNS.map((c) => {
        cellFont(doc, c.key, bold);
        return doc.heightOfString(drawable(cells[c.key]), { width: c.width - 2 * PAD });
      }),
    ) +
    2 * PAD;
  const drawRow = (cells: Cells, o: { bold?: boolean; fill?: string } = {}) => {
    const h = heightOf(cells, o.bold ?? false);
    if (doc.y + h > bottom()) {
      doc.addPage();
      doc.y = MARGIN.top;
      drawRow(header, { bold: true, fill: '#efedf7' });
    }
    const y = doc.y;
    if (o.fill) doc.rect(MARGIN.left, y, WIDTH, h).fill(o.fill);
    let x = MARGIN.left;
    for (const c of COLUMNS) {
      cellFont(doc, c.key, o.bold ?? false);
      doc.fillColor(INK).text(drawable(cells[c.key]), x + PAD, y + PAD, { width: c.width - 2 * PAD, align: c.align });
      x += c.width;
    }
    doc
      .moveTo(MARGIN.left, y + h)
      .lineTo(MARGIN.left + WIDTH, y + h)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    doc.x = MARGIN.left;
    doc.y = y + h;
  };
  drawRow(header, { bold: true, fill: '#efedf7' });
  drawRow(
    { date: s.from, description: t.openingBalance, reference: '', amount: '', balance: money(s.opening, 4) },
    { bold: true },
  );
  for (const [i, l] of s.lines.entries()) {
    // pdfkit lays out synchronously: a year of movements takes seconds, so other requests get their turn between rows.
    if (i > 0 && i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
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
    const y = A4.height - MARGIN.bottom + 22;
    doc
      .moveTo(MARGIN.left, y - 6)
      .lineTo(MARGIN.left + WIDTH, y - 6)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    doc
      .font(FONT.regular)
      .fontSize(8)
      .fillColor(MUTED)
      .text(drawable(`${t.platform} · ${t.title} · ${s.investor.name}`), MARGIN.left, y, {
        width: WIDTH - 90,
        lineBreak: false,
        ellipsis: true,
      });
    doc.text(t.page(i + 1, pages.count), MARGIN.left + WIDTH - 90, y, { width: 90, align: 'right', lineBreak: false });
    doc.page.margins.bottom = MARGIN.bottom;
  }
  doc.end();
  return done;
}

/** The table's font: 7.5 pt, bold for the header and the balance lines; references in 5.8 pt Courier, where a record
 * id (36 characters) fits one line and a transaction hash (66) two. */
function cellFont(doc: Doc, key: (typeof COLUMNS)[number]['key'], bold: boolean) {
  if (bold) doc.font(FONT.bold).fontSize(7.5);
  else if (key === 'reference') doc.font(FONT.mono).fontSize(5.8);
  else doc.font(FONT.regular).fontSize(7.5);
}
