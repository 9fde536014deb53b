/** The parameter widgets, shared by the public/embed pages and the React SDK. */
export { ParameterBar } from './ParameterBar';
export type { ParameterBarProps } from './ParameterBar';
export { DateWidget, RELATIVE_DATES } from './DateWidget';
export { ListWidget } from './ListWidget';
export { NumberWidget } from './NumberWidget';
export { describe, fromStrings, initialValues, widgetKind } from './values';
