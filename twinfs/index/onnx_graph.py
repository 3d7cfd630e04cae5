"""The embedder's ONNX graphs: exported once from the model's own weights (torch, eager attention), quantised to
int8 for batches, a session of one thread over one, and the mean pooling of what it gives (index/embedder.py
decides which graph runs where)."""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np

from .. import torch_import


def session(graph: Path):
    """An ONNX Runtime session of one thread (its own pool of two spun against the searches: bench/README.md);
    a landing runs batches on more than one thread by sharing them out (batch_threads)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])


def quantise(graph: Path, out: Path) -> None:
    """Dynamic int8 for the matrix products by weights, per output channel, but the feed-forward's second one
    (the layer whose input, after GELU, has the widest range): cosine 0.989 / 0.996 (min / mean) of fp32 on chat
    turns, against 0.983 / 0.992 with it and 0.92 / 0.95 with every op quantised per tensor (bench/README.md)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = onnx.load(str(graph))
    weights = {w.name for w in model.graph.initializer}
    chosen = [n.name for n in model.graph.node if n.op_type == "MatMul" and any(i in weights for i in n.input)
              and not _feed_forward_out(n.name)]
    quantize_dynamic(str(graph), str(out), weight_type=QuantType.QInt8, per_channel=True, nodes_to_quantize=chosen)


def _feed_forward_out(node: str) -> bool:
    """A layer's second feed-forward product, as the exporter names it (…/layer.N/output/dense/MatMul)."""
    return node.endswith("/output/dense/MatMul") and "/attention/" not in node


def export(folder: Path, out: Path) -> None:
    """torch -> ONNX (legacy exporter; eager attention gives the plainest graph, measured fastest in ORT)."""
    torch = torch_import.torch()
    from transformers import AutoModel
    from transformers.utils import logging as transformers_logging

    torch.set_num_threads(1)
    verbosity = transformers_logging.get_verbosity()
    transformers_logging.set_verbosity_error()  # its load report lists the pooler this export leaves out
    try:
        bert = AutoModel.from_pretrained(str(folder), attn_implementation="eager", add_pooling_layer=False).eval()
    finally:
        transformers_logging.set_verbosity(verbosity)

    module: Any = torch.nn.Module  # torch is imported here, at run time: a base mypy takes as it finds it

    class Hidden(module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    ids = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]])
    names = ["input_ids", "attention_mask", "token_type_ids"]
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's notes on shapes; the graph is checked in tests
        torch.onnx.export(Hidden(bert), (ids, (ids != 0).long(), torch.zeros_like(ids)), str(out), dynamo=False,
                          opset_version=17, input_names=names, output_names=["last_hidden_state"],
                          dynamic_axes={n: {0: "batch", 1: "seq"} for n in names + ["last_hidden_state"]})


def pool(session, encodings) -> np.ndarray:
    """Mean of the token vectors over the mask, made unit length: what sentence-transformers does."""
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), width), np.int64)
    mask = np.zeros((len(encodings), width), np.int64)
    for i, e in enumerate(encodings):
        ids[i, :len(e.ids)] = e.ids
        mask[i, :len(e.ids)] = 1
    hidden = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    m = mask[:, :, None].astype(np.float32)
    vec = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
    return vec / np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-12)
