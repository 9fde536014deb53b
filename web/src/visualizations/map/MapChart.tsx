import { MapChart as EMap, ScatterChart } from 'echarts/charts';
import { GeoComponent, VisualMapComponent } from 'echarts/components';
import { useEffect, useMemo, useState } from 'react';
import { echarts } from '../charts/echarts-core';
import { EChart } from '../charts/EChart';
import { NoResults } from '../charts/NoResults';
import { formatValue } from '../format/column';
import { FONT_FAMILY, palette, seriesColor } from '../theme';
import type { ChartProps } from '../types';
import { Atlas, inUnitedStates, loadPinBackground, loadRegions } from './geo';
import { planMap } from './map-settings';
import { valuesByRegion } from './regions';

echarts.use([EMap, ScatterChart, GeoComponent, VisualMapComponent]);

/** Region maps (US states, world countries) shaded by a metric, and pin maps of latitude/longitude rows. */
export default function MapChart({ data, settings, theme, width, height, onReady, onClickCell }: ChartProps) {
  const p = palette(theme);
  const plan = useMemo(() => planMap(data.cols, settings), [data.cols, settings]);
  const pins = useMemo(() => {
    if (plan?.kind !== 'pin') return [];
    return data.rows
      .map((r, i) => ({ lat: Number(r[plan.lat]), lon: Number(r[plan.lon]), rowIndex: i }))
      .filter((x) => Number.isFinite(x.lat) && Number.isFinite(x.lon) && Math.abs(x.lat) <= 90 && Math.abs(x.lon) <= 180);
  }, [data.rows, plan]);
  const [atlas, setAtlas] = useState<Atlas | null>(null);
  useEffect(() => {
    if (!plan) return;
    let live = true;
    const load =
      plan.kind === 'region'
        ? loadRegions(plan.region)
        : loadPinBackground(pins.length > 0 && pins.every((x) => inUnitedStates(x.lat, x.lon)));
    load.then((a) => {
      if (!live) return;
      echarts.registerMap(a.name, a.geojson as never);
      setAtlas(a);
    });
    return () => {
      live = false;
    };
  }, [plan, pins]);

  const built = useMemo(() => {
    if (!atlas || !plan) return null;
    const text = { fontFamily: FONT_FAMILY, color: p.text };
    const area = {
      areaColor: theme === 'night' ? '#3B444D' : '#EDF2F5',
      borderColor: theme === 'night' ? '#2E353B' : '#FFFFFF',
      borderWidth: 0.8,
    };
    if (plan.kind === 'region') {
      const values = valuesByRegion(atlas.regions, data.rows, plan.dimension, plan.metric);
      const nums = [...values.values()].map((v) => v.value);
      const metricCol = data.cols[plan.metric];
      const names = [...values.keys()];
      return {
        names,
        values,
        option: {
          animation: false,
          backgroundColor: 'transparent',
          textStyle: text,
          tooltip: {
            trigger: 'item',
            formatter: (i: { name: string; value: number }) =>
              `${i.name}: ${Number.isFinite(i.value) ? formatValue(i.value, metricCol, settings) : '—'}`,
          },
          visualMap: {
            type: 'continuous',
            min: nums.length ? Math.min(...nums) : 0,
            max: nums.length ? Math.max(...nums) : 1,
            left: 8,
            bottom: 8,
            itemHeight: 90,
            calculable: false,
            inRange: { color: settings['map.colors'] ?? ['#DCEBF9', '#8DC1F0', '#509EE3', '#2F74C1', '#1A4E8C'] },
            textStyle: { color: p.textMuted, fontFamily: FONT_FAMILY, fontSize: 10 },
            text: nums.length
              ? [
                  formatValue(Math.max(...nums), metricCol, settings, { compact: true }),
                  formatValue(Math.min(...nums), metricCol, settings, { compact: true }),
                ]
              : undefined,
          },
          series: [
            {
              type: 'map',
              map: atlas.name,
              roam: false,
              aspectScale: plan.region === 'us_states' ? 1 : 0.8,
              top: 8,
              bottom: 8,
              left: 56,
              right: 8,
              itemStyle: area,
              emphasis: { label: { show: false }, itemStyle: { areaColor: '#F9D45C' } },
              select: { disabled: true },
              label: { show: false },
              data: names.map((n) => ({ name: n, value: values.get(n)?.value })),
            },
          ],
        },
      };
    }
    const lats = pins.map((x) => x.lat);
    const lons = pins.map((x) => x.lon);
    const pad = (a: number, b: number) => Math.max(1, (b - a) * 0.08);
    const [minLat, maxLat, minLon, maxLon] = pins.length
      ? [Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons)]
      : [-60, 80, -180, 180];
    const metricCol = plan.metric === null ? undefined : data.cols[plan.metric];
    return {
      names: [],
      values: new Map(),
      option: {
        animation: false,
        backgroundColor: 'transparent',
        textStyle: text,
        tooltip: {
          trigger: 'item',
          formatter: (i: { value: number[]; dataIndex: number }) => {
            const at = `${i.value[1].toFixed(4)}, ${i.value[0].toFixed(4)}`;
            if (!metricCol) return at;
            return `${at}: ${formatValue(data.rows[pins[i.dataIndex].rowIndex][plan.metric as number], metricCol, settings)}`;
          },
        },
        geo: {
          map: atlas.name,
          roam: false,
          silent: true,
          boundingCoords: [
            [minLon - pad(minLon, maxLon), maxLat + pad(minLat, maxLat)],
            [maxLon + pad(minLon, maxLon), minLat - pad(minLat, maxLat)],
          ],
          itemStyle: area,
          label: { show: false },
        },
        series: [
          {
            type: 'scatter',
            coordinateSystem: 'geo',
            symbolSize: pins.length > 1000 ? 3 : 6,
            itemStyle: { color: seriesColor(0), opacity: 0.75, borderColor: '#FFFFFF', borderWidth: pins.length > 1000 ? 0 : 0.5 },
            data: pins.map((x) => [x.lon, x.lat]),
          },
        ],
      },
    };
  }, [atlas, plan, pins, data, settings, p, theme, width, height]);

  if (!plan)
    return (
      <NoResults
        theme={theme}
        onReady={onReady}
        message="This map needs a state or country column and a metric, or latitude and longitude columns."
      />
    );
  if (!built) return null;
  const onClick = (_: number, dataIndex: number) => {
    if (!onClickCell) return;
    if (plan.kind === 'pin') {
      const pin = pins[dataIndex];
      if (pin) onClickCell({ rowIndex: pin.rowIndex, colIndex: plan.lat, value: data.rows[pin.rowIndex][plan.lat] });
    } else {
      const hit = built.values.get(built.names[dataIndex]);
      if (hit) onClickCell({ rowIndex: hit.rowIndex, colIndex: plan.dimension, value: data.rows[hit.rowIndex][plan.dimension] });
    }
  };
  return <EChart option={built.option} width={width} height={height} onReady={onReady} onClick={onClick} />;
}
