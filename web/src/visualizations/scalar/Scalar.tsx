import { useEffect, type KeyboardEvent } from 'react';
import { palette } from '../theme';
import type { ChartProps } from '../types';
import { fitFontSize, scalarColumn, scalarText } from './scalar-value';

/** One big number (or value): the first row of `scalar.field`, compact when the full text does not fit. */
export default function Scalar({ data, settings, theme, width, height, onReady, onClickCell }: ChartProps) {
  useEffect(() => onReady(), [onReady, data, settings]);
  const p = palette(theme);
  const index = scalarColumn(data.cols, settings);
  const { full, compact, value } = scalarText(data, settings, index);
  const fits = fitFontSize(full, width, height) >= 28 || settings['scalar.compact_primary_number'] === false;
  const text = data.rows.length ? (fits ? full : compact) : '';
  const click = onClickCell ? () => onClickCell({ rowIndex: 0, colIndex: index, value }) : undefined;
  return (
    <div style={{ width, height, display: 'flex', alignItems: 'center', justifyContent: 'center', flexDirection: 'column' }}>
      <div
        data-testid="scalar-value"
        title={full}
        onClick={click}
        // A click that does something is a button, for the keyboard too.
        {...(click
          ? {
              role: 'button',
              tabIndex: 0,
              onKeyDown: (e: KeyboardEvent) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  click();
                }
              },
            }
          : {})}
        style={{
          fontSize: fitFontSize(text, width, height),
          fontWeight: 900,
          color: p.text,
          lineHeight: 1.1,
          cursor: onClickCell ? 'pointer' : undefined,
          whiteSpace: 'nowrap',
        }}
      >
        {text}
      </div>
    </div>
  );
}
