/** The visualization components, shared by the public/embed pages and the React SDK. */
export { Visualization } from './Visualization';
export { preloadDisplays, supportedDisplays } from './registry';
export type { CellClick, ChartMarker, Column, Dataset, Settings, Theme, VisualizationProps } from './types';
