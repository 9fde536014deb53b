import { Suspense, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { componentFor, supportedDisplays } from './registry';
import { useFontsEpoch } from './fonts';
import { FONT_FAMILY, palette } from './theme';
import type { VisualizationProps } from './types';

/** Height used when the container has none (an unsized div in a page flow). */
const FALLBACK_HEIGHT = 320;

/**
 * Draws a card's answer as its `display` says, filling its container (or `width` x `height`). The root carries
 * data-testid="visualization" and data-state="loading" | "ready" (ready once the chart reports it is drawn), so
 * tests and the embedding page can wait on it. An unknown display falls back to a table with a note.
 */
export function Visualization(input: VisualizationProps) {
  // A card without settings (null) or an answer without rows draws as empty rather than failing.
  const data = useMemo(() => normalizeData(input.data), [input.data]);
  const settings = useMemo(() => (input.settings && typeof input.settings === 'object' ? input.settings : {}), [input.settings]);
  const theme = input.theme === 'night' || input.theme === 'transparent' ? input.theme : 'light';
  const props: VisualizationProps = { ...input, data, settings, theme };
  const { display } = props;
  const known = supportedDisplays.includes(display);
  const colors = palette(theme);
  const area = useRef<HTMLDivElement>(null);
  const [measured, setMeasured] = useState<{ width: number; height: number } | null>(null);

  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    const measure = () => {
      const r = el.getBoundingClientRect();
      setMeasured((old) =>
        old && Math.round(old.width) === Math.round(r.width) && Math.round(old.height) === Math.round(r.height)
          ? old
          : { width: Math.round(r.width), height: Math.round(r.height) },
      );
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Ready belongs to one drawing of one input: new data, settings or fonts make the state "loading" until drawn again.
  const fonts = useFontsEpoch();
  const version = useMemo(() => ({}), [display, data, settings, theme, fonts]);
  const [readyFor, setReadyFor] = useState<object | null>(null);
  const onReady = useCallback(() => setReadyFor(version), [version]);

  const width = props.width ?? measured?.width ?? 0;
  const height =
    props.height !== undefined ? props.height - (known ? 0 : 24) : measured && measured.height > 0 ? measured.height : FALLBACK_HEIGHT;
  const Chart = componentFor(display);

  return (
    <div
      data-testid="visualization"
      data-display={known ? display : 'table'}
      data-state={readyFor === version ? 'ready' : 'loading'}
      style={{
        width: props.width ?? '100%',
        height: props.height ?? '100%',
        minHeight: props.height === undefined ? 0 : undefined,
        display: 'flex',
        flexDirection: 'column',
        background: colors.background,
        color: colors.text,
        fontFamily: FONT_FAMILY,
        fontSize: 13,
        boxSizing: 'border-box',
        overflow: 'hidden',
      }}
    >
      {!known && (
        <div
          data-testid="visualization-note"
          style={{ height: 24, lineHeight: '24px', fontSize: 12, color: colors.textMuted, padding: '0 8px' }}
        >
          {`This visualization ("${display}") is not supported here; showing the table.`}
        </div>
      )}
      <div ref={area} style={{ flex: '1 1 auto', minHeight: 0, minWidth: 0, position: 'relative' }}>
        {width > 0 && (
          <Suspense fallback={null}>
            <Chart {...props} display={known ? display : 'table'} width={width} height={height} onReady={onReady} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

function normalizeData(data: VisualizationProps['data'] | null | undefined): VisualizationProps['data'] {
  if (data && Array.isArray(data.rows) && Array.isArray(data.cols)) return data;
  return { ...(data ?? {}), rows: data?.rows ?? [], cols: data?.cols ?? [] };
}
