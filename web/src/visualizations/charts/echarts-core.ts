/**
 * The ECharts core with the pieces every chart shares (SVG renderer, grid, tooltip, legend, goal lines). Each chart
 * family registers its own chart types with `use`, so a page only downloads the charts it draws.
 */
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([SVGRenderer, GridComponent, TooltipComponent, LegendComponent, MarkLineComponent]);

export { echarts };
