"""brasa.utils.data: torch.utils.data's datasets, samplers, collation and DataLoader."""
from .collate import default_collate, default_convert  # noqa: F401
from .dataloader import DataLoader, WorkerInfo, get_worker_info  # noqa: F401
from .dataset import (ConcatDataset, Dataset, IterableDataset, Subset,  # noqa: F401
                      TensorDataset, random_split)
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler,  # noqa: F401
                      SubsetRandomSampler)
