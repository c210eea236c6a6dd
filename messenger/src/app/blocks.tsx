import type { ComponentChild } from 'preact';
import type { components } from '../../../sdk/src/index.js';
import { word } from '../../../sdk/src/index.js';

type Span = components['schemas']['Span'];
/** A content block as parts, articles and in-app messages carry it: only the members its type names are set. */
export interface Block {
  type: string;
  level?: number;
  spans?: Span[];
  items?: { spans: Span[] }[];
  imageUrl?: string;
  alt?: string;
  label?: string;
  link?: string;
}

const BLOCK_TYPES = ['heading', 'paragraph', 'list', 'numbered_list', 'image', 'callout', 'link'] as const;

/** An address the messenger opens: https only (a path in the product is the app's to open, not the page's). */
export const safeLink = (link: string | undefined) => (link && /^https:\/\//i.test(link) ? link : undefined);

function SpanText({ span }: { span: Span }) {
  let out: ComponentChild = span.text;
  if (span.bold) out = <strong>{out}</strong>;
  if (span.italic) out = <em>{out}</em>;
  if (span.underline) out = <u>{out}</u>;
  if (span.strike) out = <s>{out}</s>;
  if (span.highlight) out = <mark>{out}</mark>;
  const href = safeLink(span.link);
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {out}
    </a>
  ) : (
    <>{out}</>
  );
}

const Spans = ({ spans }: { spans?: Span[] }) => (
  <>
    {(spans ?? []).map((s, i) => (
      <SpanText key={i} span={s} />
    ))}
  </>
);

/** Content blocks drawn; a block type this messenger does not know is left out (a newer service may send one). */
export function Blocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((b, i) => {
        switch (word(b.type, BLOCK_TYPES, 'unknown')) {
          case 'heading': {
            const Tag = `h${Math.min(3, Math.max(1, b.level ?? 2)) + 2}` as 'h3' | 'h4' | 'h5';
            return (
              <Tag key={i}>
                <Spans spans={b.spans} />
              </Tag>
            );
          }
          case 'paragraph':
            return (
              <p key={i}>
                <Spans spans={b.spans} />
              </p>
            );
          case 'list':
          case 'numbered_list': {
            const List = b.type === 'list' ? 'ul' : 'ol';
            return (
              <List key={i}>
                {(b.items ?? []).map((item, j) => (
                  <li key={j}>
                    <Spans spans={item.spans} />
                  </li>
                ))}
              </List>
            );
          }
          case 'image':
            return b.imageUrl ? <img key={i} class="block-image" src={b.imageUrl} alt={b.alt ?? ''} loading="lazy" /> : null;
          case 'callout':
            return (
              <p key={i} class="callout">
                <Spans spans={b.spans} />
              </p>
            );
          case 'link': {
            const href = safeLink(b.link);
            return href ? (
              <p key={i}>
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {b.label || href}
                </a>
              </p>
            ) : null;
          }
          default:
            return null;
        }
      })}
    </>
  );
}
