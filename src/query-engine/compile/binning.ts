import type { Binning } from '../mbql/types';
import type { FieldMeta } from '../metadata';
import { QueryCompileError } from './contract';

/** Metabase's defaults: `breakout-bins-num` and `breakout-bin-width` (for coordinates). */
export const DEFAULT_NUM_BINS = 8;
export const DEFAULT_COORDINATE_BIN_WIDTH = 1;

export interface ResolvedBinning {
  strategy: 'num-bins' | 'bin-width' | 'default';
  binWidth: number;
  numBins: number;
  minValue: number;
  maxValue: number;
}

const PLEASING = [1, 1.25, 2, 2.5, 3, 5, 7.5, 10];

/** min/max from Metabase's fingerprint shape `{type: {"type/Number": {min, max}}}`. */
export function fingerprintRange(field: Pick<FieldMeta, 'fingerprint'> | undefined): { min: number; max: number } | null {
  const fp = field?.fingerprint as { type?: Record<string, { min?: unknown; max?: unknown }> } | null | undefined;
  const num = fp?.type?.['type/Number'];
  if (!num || typeof num.min !== 'number' || typeof num.max !== 'number' || !Number.isFinite(num.min) || !Number.isFinite(num.max))
    return null;
  return { min: num.min, max: num.max };
}

function orderOfMagnitude(x: number): number {
  return x === 0 ? 0 : Math.floor(Math.log10(Math.abs(x)));
}

function nicerBinWidth(min: number, max: number, numBins: number): number {
  const minWidth = (max - min) / numBins;
  if (minWidth <= 0) return 1;
  const scale = Math.pow(10, orderOfMagnitude(minWidth));
  const multiplier = PLEASING.find((m) => m * scale >= minWidth) ?? 10;
  return clean(multiplier * scale);
}

/** Avoids 0.30000000000000004-style widths in the SQL and in binning_info. */
function clean(x: number): number {
  return Number(x.toPrecision(12));
}

function nicerBounds(min: number, max: number, width: number): [number, number] {
  return [clean(Math.floor(min / width) * width), clean(Math.ceil(max / width) * width)];
}

/**
 * Metabase's binning (`metabase.query-processor.middleware.binning`): a "nice" width (1, 1.25, 2, 2.5, 3, 5, 7.5
 * times a power of ten) from the fingerprint's min and max, bounds rounded out to whole bins, iterated to a
 * fixed point.
 */
export function resolveBinning(
  binningIn: Binning,
  field: FieldMeta | undefined,
  semanticType: string | null,
  clause: string,
): ResolvedBinning {
  const binning = binningIn as { strategy: string; 'num-bins'?: number; 'bin-width'?: number; 'min-value'?: number; 'max-value'?: number };
  const range =
    binning['min-value'] !== undefined && binning['max-value'] !== undefined
      ? { min: binning['min-value'], max: binning['max-value'] }
      : fingerprintRange(field);
  let strategy = binning.strategy;
  let numBins: number;
  let width: number;
  if (strategy === 'default') {
    const coordinate = semanticType === 'type/Latitude' || semanticType === 'type/Longitude' || semanticType === 'type/Coordinate';
    if (coordinate) {
      strategy = 'bin-width';
      width = DEFAULT_COORDINATE_BIN_WIDTH;
      numBins = 0;
    } else {
      strategy = 'num-bins';
      numBins = DEFAULT_NUM_BINS;
      width = 0;
    }
  } else if (strategy === 'num-bins') {
    numBins = binning['num-bins'] as number;
    width = 0;
    if (!Number.isInteger(numBins) || numBins < 1 || numBins > 10_000) {
      throw new QueryCompileError(`num-bins must be a whole number from 1 to 10000 in "${clause}".`, clause);
    }
  } else if (strategy === 'bin-width') {
    width = binning['bin-width'] as number;
    numBins = 0;
    if (typeof width !== 'number' || !Number.isFinite(width) || width <= 0) {
      throw new QueryCompileError(`bin-width must be a positive number in "${clause}".`, clause);
    }
  } else {
    throw new QueryCompileError(
      `Unknown binning strategy ${JSON.stringify((binning as { strategy: unknown }).strategy)} in "${clause}".`,
      clause,
    );
  }
  if (!range) {
    throw new QueryCompileError(
      `Cannot bin ${field ? `field ${field.id}` : 'this column'} in "${clause}": its min and max values are not known (no fingerprint).`,
      clause,
    );
  }
  let min = range.min;
  let max = range.max;
  for (let i = 0; i < 10; i++) {
    const w = strategy === 'num-bins' ? nicerBinWidth(min, max, numBins) : width;
    const [nmin, nmax] = nicerBounds(min, max, w);
    const nbins = strategy === 'num-bins' ? numBins : Math.max(1, Math.ceil((nmax - nmin) / w));
    const same = w === width && nmin === min && nmax === max && nbins === numBins;
    width = w;
    min = nmin;
    max = nmax;
    numBins = nbins;
    if (same) break;
  }
  return { strategy: binningIn.strategy, binWidth: width, numBins, minValue: min, maxValue: max };
}
