declare module "pg/lib/result.js" {
  const Result: { prototype: { addFields: (fields: { dataTypeID: number }[]) => void } };
  export default Result;
}
