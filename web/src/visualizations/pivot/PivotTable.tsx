import Table from '../table/Table';
export default Table;
